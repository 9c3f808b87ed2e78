/**
 * The README's (and docs pages') examples as a reader copies them: each is the fenced block just
 * below an `<!-- example: NAME -->` comment. The placeholders a reader fills in (`PROJECT_ID`, `whsec_…`,
 * `tg_…`) and the ports of the examples are replaced by the test's own values, each where the
 * README writes it and nowhere else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PACKAGE_ROOT } from '../../src/spec';

export interface Example {
  name: string;
  /** The fence's info string: sh, ts, js. */
  lang: string;
  code: string;
}

const MARKED = /^<!-- example: ([\w-]+) -->\n```(\w*)\n([\s\S]*?)^```$/gm;

/**
 * Every marked example of the README (or of `file`, a page under the package root), by name; a
 * marker not followed by a fenced block is an error.
 */
export function readmeExamples(
  readme = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8'),
  file = 'README.md',
) {
  const examples = new Map<string, Example>();
  for (const [, name, lang, code] of readme.matchAll(MARKED)) {
    if (examples.has(name!)) throw new Error(`${file} marks two examples "${name}"`);
    examples.set(name!, { name: name!, lang: lang!, code: code! });
  }
  const markers = [...readme.matchAll(/<!-- example: ([\w-]+) -->/g)].map((m) => m[1]);
  const unfenced = markers.filter((name) => !examples.has(name!));
  if (unfenced.length > 0) throw new Error(`${file}: no fenced block right below the marker of ${unfenced.join(', ')}`);
  return examples;
}

/** Replaces each of `from` in `code` by its value; fails when one of them is not in the code. */
export function substitute(code: string, from: Record<string, string>): string {
  let out = code;
  for (const [written, value] of Object.entries(from)) {
    if (!out.includes(written)) throw new Error(`the example no longer holds ${written}:\n${code}`);
    out = out.split(written).join(value);
  }
  return out;
}

/**
 * The environment assignments of each `npm start` in a shell example (`A=1 npm start` gives
 * `{A: '1'}`), and the example without those lines: the test starts the server itself.
 */
export function npmStarts(code: string): { starts: Record<string, string>[]; rest: string } {
  const starts: Record<string, string>[] = [];
  const rest: string[] = [];
  for (const line of code.split('\n')) {
    const commands = line
      .replace(/#.*$/, '')
      .split('&&')
      .map((c) => c.trim());
    const start = commands.findIndex((c) => /^(\w+=\S*\s+)*npm start$/.test(c));
    if (start === -1) {
      rest.push(line);
      continue;
    }
    starts.push(Object.fromEntries([...commands[start]!.matchAll(/(\w+)=(\S*)\s+/g)].map((m) => [m[1]!, m[2]!])));
    // What came before `npm start` on its line (`npm install &&`) is the checkout's set-up.
    rest.push(`# ${line}`);
  }
  return { starts, rest: rest.join('\n') };
}

interface WebhookExample {
  eventType: string;
  body: Record<string, unknown>;
}

/** Every example body of every event type webhooks.yaml declares (its `webhooks` section). */
export function webhookExamples(): WebhookExample[] {
  const doc = parseYaml(fs.readFileSync(path.join(PACKAGE_ROOT, 'webhooks.yaml'), 'utf8')) as {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { examples?: object }> } } }>;
    components: { examples: Record<string, { value: Record<string, unknown> }> };
  };
  const resolve = (e: { $ref?: string; value?: Record<string, unknown> }) => {
    const named = e.$ref?.replace('#/components/examples/', '');
    const found = named !== undefined ? doc.components.examples[named] : e;
    if (!found?.value) throw new Error(`webhooks.yaml: no example ${e.$ref}`);
    return found.value;
  };
  return Object.entries(doc.webhooks).flatMap(([eventType, { post }]) =>
    Object.values(post.requestBody.content['application/json']?.examples ?? {}).map((e) => ({
      eventType,
      body: resolve(e as { $ref?: string; value?: Record<string, unknown> }),
    })),
  );
}
