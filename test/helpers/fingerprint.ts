/** The web SDK's fingerprint components as Chrome on a Mac reads them, agreeing with personSession's facts (evaluation.ts). */
import type { FingerprintComponents } from '../../src/api-types';
import { V8_MATH } from '../../src/domain/signals/fingerprint';

export const MAC_GPU = 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)';

export function macComponents(over: Partial<FingerprintComponents> = {}): FingerprintComponents {
  return {
    canvas: '5f1c0b0e2d3a4c5b6a7988776655aa10',
    gpu: MAC_GPU,
    fonts: ['Arial', 'Helvetica', 'Helvetica Neue', 'Menlo', 'Monaco', 'SF Pro Text', 'Times New Roman'],
    math: [...V8_MATH],
    screen: [1728, 1117, 30],
    cores: 8,
    memory: 8,
    platform: 'MacIntel',
    vendor: 'Google Inc.',
    touch: 0,
    ...over,
  };
}
