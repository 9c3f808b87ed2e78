/// <reference path="./vendor.d.ts" />
/**
 * The device's fingerprint: a MurmurHash3 (x86, 128-bit) over characteristics of the hardware and
 * its rendering that do not change between page loads or with the window's size: the canvas and
 * WebGL rendering, the installed fonts, the engine's floating-point results, the screen and
 * hardware. It is the same in every profile of one browser and after its storage is cleared, and
 * alike on same-model machines: the server links it as a `device` (probabilistic); the stored
 * device id (storage.ts) is the browser instance, a `browser` link. The time zone and languages
 * are left out: they are sent as facts of their own, and a traveller is still the same device.
 *
 * The components are posted too (`fingerprint_components`, the canvas as a digest of its image):
 * the server derives the fingerprint from them the same way (src/domain/session/fingerprint.ts)
 * and checks them against the post's other facts.
 */
import murmur from 'murmurhash3js-revisited';
import { gpuRenderer } from './device.js';
import { attempt } from './attempt.js';
import { canonical } from './transport.js';
import type { IngestSession } from './types.js';

export type FingerprintComponents = NonNullable<IngestSession['fingerprint_components']>;

const hash = (text: string) => murmur.x86.hash128(new TextEncoder().encode(text));

function canvasImage(): string {
  const canvas = document.createElement('canvas');
  canvas.width = 240;
  canvas.height = 60;
  const ctx = canvas.getContext('2d');
  if (!ctx) return '';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#f60';
  ctx.fillRect(100, 1, 62, 20);
  ctx.fillStyle = '#069';
  ctx.font = '11pt "Times New Roman"';
  ctx.fillText('Trustgate, fraud <canvas> 1.0 \u{1F600}', 2, 15);
  ctx.fillStyle = 'rgba(102, 204, 0, 0.7)';
  ctx.font = '18pt Arial';
  ctx.fillText('Cwm fjordbank glyphs vext quiz', 4, 45);
  ctx.globalCompositeOperation = 'multiply';
  ctx.beginPath();
  ctx.arc(50, 50, 50, 0, Math.PI * 2, true);
  ctx.closePath();
  ctx.fillStyle = 'rgb(255,0,255)';
  ctx.fill();
  return canvas.toDataURL();
}

const FONTS = [
  'Arial',
  'Arial Black',
  'Calibri',
  'Cambria',
  'Candara',
  'Comic Sans MS',
  'Consolas',
  'Courier New',
  'DejaVu Sans',
  'Futura',
  'Garamond',
  'Geneva',
  'Georgia',
  'Helvetica',
  'Helvetica Neue',
  'Impact',
  'Liberation Sans',
  'Lucida Console',
  'Lucida Grande',
  'Menlo',
  'Monaco',
  'Noto Sans',
  'Optima',
  'Palatino',
  'Roboto',
  'Segoe UI',
  'SF Pro Text',
  'Tahoma',
  'Times New Roman',
  'Trebuchet MS',
  'Ubuntu',
  'Verdana',
];
const BASES = ['monospace', 'serif', 'sans-serif'];
const SAMPLE = 'mmmmmmmmmmlli WwQq@#0123';

/** The fonts among FONTS whose rendering differs from every generic fallback. */
function installedFonts(): string[] {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return [];
  const width = (font: string) => {
    ctx.font = `72px ${font}`;
    return ctx.measureText(SAMPLE).width;
  };
  const base = BASES.map(width);
  return FONTS.filter((font) => BASES.some((fallback, i) => width(`'${font}', ${fallback}`) !== base[i]));
}

/** Results that differ between JavaScript engines and their maths libraries. */
export function mathResults(): number[] {
  return [
    Math.acos(0.123),
    Math.asinh(1),
    Math.atanh(0.5),
    Math.cbrt(100),
    Math.cosh(1),
    Math.expm1(1),
    Math.sinh(1),
    Math.tan(-1e300),
    Math.log1p(10),
  ];
}

// Within the spec's limits whatever a patched navigator returns, so that the post is never refused.
const count = (n: unknown, max: number) => (typeof n === 'number' && n >= 0 ? Math.min(Math.floor(n), max) : 0);
const text = (s: unknown) => (typeof s === 'string' ? s.slice(0, 64) : '');

export function fingerprintComponents(): FingerprintComponents {
  const image = attempt(canvasImage, '');
  const memory = navigator.deviceMemory;
  return {
    canvas: image ? hash(image) : '',
    gpu: gpuRenderer() ?? '',
    fonts: attempt(installedFonts, []),
    math: attempt(mathResults, []),
    screen: [count(screen.width, 1e5), count(screen.height, 1e5), count(screen.colorDepth, 1e5)],
    cores: count(navigator.hardwareConcurrency, 4096),
    memory: typeof memory === 'number' && memory >= 0 && memory <= 65536 ? memory : 0,
    platform: text(navigator.platform),
    vendor: text(navigator.vendor),
    touch: count(navigator.maxTouchPoints, 1024),
  };
}

/** The fingerprint of the components: MurmurHash3 (x86, 128-bit) of their canonical JSON (openapi.yaml, `FingerprintComponents`). */
export function browserFingerprint(components: FingerprintComponents = fingerprintComponents()): string {
  return hash(canonical(components));
}
