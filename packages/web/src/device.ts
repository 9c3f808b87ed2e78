/// <reference path="./vendor.d.ts" />
/**
 * The browser's and device's facts as the platform reports them: user agent and client hints,
 * languages, time zone, screen, CPU cores, memory and GPU.
 */
import type { IngestSession } from './types.js';

type DeviceFacts = Pick<
  IngestSession,
  | 'user_agent'
  | 'client_hints'
  | 'languages'
  | 'timezone'
  | 'timezone_offset_minutes'
  | 'screen'
  | 'cpu_cores'
  | 'memory'
  | 'gpu'
>;

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** The WebGL renderer string (the unmasked one where the browser gives it). */
export function gpuRenderer(doc: Document = document): string | undefined {
  try {
    const canvas = doc.createElement('canvas');
    const gl = (canvas.getContext('webgl') ?? canvas.getContext('experimental-webgl')) as WebGLRenderingContext | null;
    if (!gl) return undefined;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
    return typeof renderer === 'string' && renderer ? clip(renderer, 512) : undefined;
  } catch {
    return undefined;
  }
}

export function timeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

async function clientHints(): Promise<IngestSession['client_hints']> {
  const data = navigator.userAgentData;
  if (!data) return undefined;
  const brands = (list: { brand: string; version: string }[]) =>
    list.slice(0, 16).map((b) => ({ brand: clip(b.brand, 128), version: clip(b.version, 64) }));
  const hints: NonNullable<IngestSession['client_hints']> = {
    brands: brands(data.brands),
    mobile: data.mobile,
    platform: clip(data.platform, 64),
  };
  try {
    const high = await data.getHighEntropyValues(['fullVersionList', 'platformVersion', 'model']);
    if (high.fullVersionList?.length) hints.full_version_list = brands(high.fullVersionList);
    if (high.platformVersion) hints.platform_version = clip(high.platformVersion, 64);
    if (high.model) hints.model = clip(high.model, 128);
  } catch {
    // High-entropy hints are optional; a browser may refuse them.
  }
  return hints;
}

export async function deviceFacts(): Promise<DeviceFacts> {
  const facts: DeviceFacts = {
    user_agent: clip(navigator.userAgent, 1024),
    languages: (navigator.languages?.length ? navigator.languages : [navigator.language])
      .filter(Boolean)
      .slice(0, 32)
      .map((l) => clip(l, 64)),
    timezone_offset_minutes: -new Date().getTimezoneOffset(),
    screen: { width: screen.width, height: screen.height },
  };
  const zone = timeZone();
  if (zone) facts.timezone = clip(zone, 64);
  if (navigator.hardwareConcurrency) facts.cpu_cores = navigator.hardwareConcurrency;
  if (typeof navigator.deviceMemory === 'number') facts.memory = navigator.deviceMemory;
  const gpu = gpuRenderer();
  if (gpu) facts.gpu = gpu;
  const hints = await clientHints();
  if (hints) facts.client_hints = hints;
  return facts;
}
