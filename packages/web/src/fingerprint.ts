/// <reference path="./vendor.d.ts" />
/**
 * The device's fingerprint: a MurmurHash3 (x86, 128-bit) over characteristics of the hardware and
 * its rendering that do not change between page loads or with the window's size: the canvas and
 * WebGL rendering, the installed fonts, the engine's floating-point results, the screen and
 * hardware. It is the same in every profile of one browser and after its storage is cleared, and
 * alike on same-model machines: the server links it as a `device` (probabilistic); the stored
 * device id (storage.ts) is the browser instance, a `browser` link. The time zone and languages
 * are left out: they are sent as facts of their own, and a traveller is still the same device.
 */
import murmur from 'murmurhash3js-revisited';
import { gpuRenderer } from './device.js';
import { attempt } from './attempt.js';

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
function mathResults(): number[] {
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

export function fingerprintComponents(): Record<string, unknown> {
  return {
    canvas: attempt(canvasImage, ''),
    gpu: gpuRenderer() ?? '',
    fonts: attempt(installedFonts, []),
    math: attempt(mathResults, []),
    screen: [screen.width, screen.height, screen.colorDepth],
    cores: navigator.hardwareConcurrency ?? 0,
    memory: navigator.deviceMemory ?? 0,
    platform: navigator.platform ?? '',
    vendor: navigator.vendor ?? '',
    touch: navigator.maxTouchPoints ?? 0,
  };
}

export function browserFingerprint(components: Record<string, unknown> = fingerprintComponents()): string {
  return murmur.x86.hash128(new TextEncoder().encode(JSON.stringify(components)));
}
