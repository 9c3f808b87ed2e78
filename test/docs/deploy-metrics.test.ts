/**
 * docs/deploy.md's Prometheus blocks against the app's real GET /metrics. Prometheus itself is
 * not installed here (Debian's `prometheus` package, whose `promtool check` would read the
 * files whole), so what the blocks rely on of Trustgate is checked instead: the scrape job's
 * `credentials_file`, written as a reader writes it (the token and a newline), is the
 * METRICS_TOKEN that /metrics answers to; and every series each alert's expression names is
 * one the service exports, with the labels and label values the expression selects on.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { operationIds, PACKAGE_ROOT } from '../../src/spec';
import { makeMetrics } from '../../src/telemetry/metrics';
import { makeTestContext, type TestContext } from '../helpers/app';
import { personSession } from '../helpers/evaluation';
import { parseMetrics, type Scrape } from '../helpers/prometheus';
import { readmeExamples } from '../readme/examples';

const DOC = 'docs/deploy.md';
const examples = readmeExamples(fs.readFileSync(path.join(PACKAGE_ROOT, DOC), 'utf8'), DOC);
const yamlOf = (name: string) => parseYaml(examples.get(name)!.code) as unknown;
const TOKEN = 'scrape-token-0123456789abcdef';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ metricsToken: TOKEN }, { metrics: makeMetrics({ operations: operationIds() }) });
});
afterAll(() => ctx.close());

it("the scrape job: when /metrics is asked with the job's credentials file as Prometheus sends it, then 200; without, 401", async () => {
  const config = yamlOf('prometheus-scrape') as {
    scrape_configs: { job_name: string; authorization: { credentials_file: string }; static_configs: unknown[] }[];
  };
  const [job] = config.scrape_configs;
  expect(job!.job_name).toBe('trustgate');
  // The file as `echo TOKEN > file` writes it; Prometheus sends its content, trimmed, as a Bearer token.
  const credentials = `${TOKEN}\n`.trim();
  expect(path.isAbsolute(job!.authorization.credentials_file)).toBe(true);
  await request(ctx.app).get('/metrics').set('authorization', `Bearer ${credentials}`).expect(200);
  await request(ctx.app).get('/metrics').expect(401);
});

/** The series names and label matchers of a PromQL expression (`name{label="value", label=~"re"}`). */
function selectors(expr: string) {
  return [...expr.matchAll(/\b((?:trustgate|nodejs|process)_[a-z0-9_]+)(?:\{([^}]*)\})?/g)].map((m) => ({
    name: m[1]!,
    matchers: [...(m[2] ?? '').matchAll(/(\w+)\s*(=~|!=|=)\s*"([^"]*)"/g)].map((l) => ({
      label: l[1]!,
      op: l[2]!,
      value: l[3]!,
    })),
  }));
}

it("the alerts: when every expression's series are looked for in a scrape after an evaluation, then each is there with the labels it selects", async () => {
  const session = personSession();
  await request(ctx.app).post('/ingest/session').set('x-project-id', ctx.project.project_id).send(session).expect(200);
  await request(ctx.app)
    .post('/session/authenticate')
    .set('x-api-key', ctx.project.api_key)
    .send({ session_id: session.session_id, account: { id: 'acct-1' } })
    .expect(200);
  const text = (await request(ctx.app).get('/metrics').set('authorization', `Bearer ${TOKEN}`).expect(200)).text;
  const scrape: Scrape = parseMetrics(text);
  const alerts = yamlOf('prometheus-alerts') as { alert: string; expr: string }[];
  expect(alerts.length).toBeGreaterThan(5);
  const missing: string[] = [];
  for (const { alert, expr } of alerts) {
    const used = selectors(expr);
    expect({ alert, used: used.length > 0 }).toEqual({ alert, used: true });
    for (const { name, matchers } of used) {
      const samples = scrape.series.get(name) ?? scrape.families.get(name)?.metrics;
      if (!samples) {
        missing.push(`${alert}: ${name}`);
        continue;
      }
      for (const { label, op, value } of matchers) {
        // Each label it selects on is one of the series'; an exact value is one the service can write.
        // (A labelled counter nothing has counted yet, such as failed deliveries, has no series to look in.)
        const labelled = samples.filter((s) => s.labels && Object.keys(s.labels).length > 0);
        if (labelled.length > 0 && !labelled.some((s) => label in s.labels!))
          missing.push(`${alert}: ${name}{${label}}`);
        if (op === '=' && label === 'operation' && !operationIds().includes(value))
          missing.push(`${alert}: operation ${value}`);
      }
    }
  }
  expect(missing).toEqual([]);
});
