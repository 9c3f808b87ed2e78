/**
 * Loading the face models: Human's (`@vladmandic/human`, MIT) face pipeline on TensorFlow.js's
 * WebAssembly backend. Everything comes from installed packages: the models from Human's own
 * `models/` folder, the backend's `.wasm` files from `@tensorflow/tfjs-backend-wasm/dist/`;
 * nothing is fetched.
 *
 * Human's Node builds load models with `fetch`, which cannot read `file://` URLs, and its
 * default build wants the native `@tensorflow/tfjs-node` (whose install downloads a binary). So
 * this module uses Human's `human.node-wasm.js` build and registers, once per process, a
 * TensorFlow.js load router that reads a `file://` model (its JSON and weight shards) from disk.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import type { Config, Human } from '@vladmandic/human';

type HumanModule = typeof import('@vladmandic/human');

/** Human's package folder (its `exports` map publishes neither package.json nor its wasm build, so this goes through its main file). */
function humanDist(): string {
  return path.dirname(require.resolve('@vladmandic/human'));
}

export function defaultModelDir(): string {
  return path.join(humanDist(), '..', 'models');
}

function wasmDir(): string {
  return path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
}

/** A TensorFlow.js IOHandler that reads a graph model's `model.json` and its weight shards from the disk. */
function fileModel(url: string): tf.io.IOHandler {
  const file = decodeURIComponent(url.slice('file://'.length));
  return {
    async load() {
      const json = JSON.parse(await fs.readFile(file, 'utf8')) as tf.io.ModelJSON;
      const specs: tf.io.WeightsManifestEntry[] = [];
      const shards: Buffer[] = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const shard of group.paths) shards.push(await fs.readFile(path.join(path.dirname(file), shard)));
      }
      const weights = Buffer.concat(shards);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        modelInitializer: json.modelInitializer,
        weightSpecs: specs,
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      };
    },
  };
}

let routerRegistered = false;
function registerFileRouter(): void {
  if (routerRegistered) return;
  // A router answers null for URLs it does not handle (the type says IOHandler; the registry checks for null).
  const router = (url: string | string[]) =>
    typeof url === 'string' && url.startsWith('file://') ? fileModel(url) : null;
  tf.io.registerLoadRouter(router as Parameters<typeof tf.io.registerLoadRouter>[0]);
  routerRegistered = true;
}

/**
 * The face pipeline: BlazeFace finds faces (up to `maxFaces`), FaceMesh aligns each (so a tilted
 * head is rotated upright before it is described), FaceRes gives the 1024-value description and
 * the age, and the anti-spoofing and liveness models each score the crop. Everything else Human
 * can do (body, hands, objects, iris, emotion, gestures, segmentation) is off. Caching between
 * frames is off: every image is a new one.
 */
export function humanConfig(modelDir: string, maxFaces: number): Partial<Config> {
  const off = { enabled: false };
  return {
    backend: 'wasm',
    wasmPath: wasmDir() + path.sep,
    modelBasePath: 'file://' + modelDir + path.sep,
    debug: false,
    async: true,
    warmup: 'none',
    cacheModels: false,
    cacheSensitivity: 0,
    skipAllowed: false,
    validateModels: false,
    filter: { enabled: false },
    gesture: off,
    body: off,
    hand: off,
    object: off,
    segmentation: off,
    face: {
      enabled: true,
      detector: {
        enabled: true,
        rotation: true,
        maxDetected: maxFaces,
        minConfidence: 0.3,
        iouThreshold: 0.1,
        return: false,
        skipFrames: 0,
        skipTime: 0,
      },
      mesh: { enabled: true, keepInvalid: false },
      attention: off,
      iris: off,
      emotion: off,
      gear: off,
      description: { enabled: true, minConfidence: 0.1, skipFrames: 0, skipTime: 0 },
      antispoof: { enabled: true, skipFrames: 0, skipTime: 0 },
      liveness: { enabled: true, skipFrames: 0, skipTime: 0 },
    } as Partial<Config['face']>,
  };
}

/** Creates Human on the WebAssembly backend and loads the face models. */
async function loadHuman(modelDir: string, maxFaces: number): Promise<Human> {
  registerFileRouter();
  // The wasm build is not in Human's `exports` map, so it is required by its path.
  const { Human: HumanClass } = require(path.join(humanDist(), 'human.node-wasm.js')) as HumanModule;
  const human = new HumanClass(humanConfig(modelDir, maxFaces));
  await human.load();
  const missing = ['blazeface', 'facemesh', 'faceres', 'antispoof', 'liveness'].filter(
    (name) => !human.models.models[name],
  );
  if (missing.length) throw new Error(`face models did not load from ${modelDir}: ${missing.join(', ')}`);
  return human;
}

/**
 * Human keeps its loaded models per process (module state inside its bundle), whatever the
 * number of Human instances. So the models are shared here too, counted by their users: the
 * last `releaseHuman` frees them, and two engines in one process cannot disagree on them.
 */
let shared: { human: Promise<Human>; users: number; key: string } | undefined;

export function acquireHuman(modelDir: string, maxFaces: number): Promise<Human> {
  const key = `${modelDir}|${maxFaces}`;
  if (shared && shared.key !== key)
    return Promise.reject(new Error(`the face models are already loaded from ${shared.key} in this process`));
  if (!shared) {
    const entry = { human: loadHuman(modelDir, maxFaces), users: 0, key };
    shared = entry;
    entry.human.catch(() => {
      if (shared === entry) shared = undefined;
    });
  }
  shared.users++;
  return shared.human;
}

/** One user is done; the last one frees the models' weights (the next `acquireHuman` loads them anew). */
export async function releaseHuman(): Promise<void> {
  if (!shared) return;
  shared.users--;
  if (shared.users > 0) return;
  const { human } = shared;
  shared = undefined;
  const loaded = await human.catch(() => undefined);
  if (!loaded) return;
  for (const model of Object.values(loaded.models.models)) model?.dispose();
  loaded.reset();
}
