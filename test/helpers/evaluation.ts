/** Scenario helpers for the risk engine's HTTP tests: sessions posted as the SDK posts them. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { AccountInput, AuthenticateResponse, IngestSession, UnauthenticatedResponse } from '../../src/api-types';
import { payloadMac } from '../../src/domain/session/integrity';
import { addToIpList, type IpListName } from '../../src/geo/ip-lists';
import type { TestContext } from './app';

export const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
/** An address in London (DB-IP: GB, Europe/London), on a residential ISP. */
export const LONDON_IP = '81.2.69.142';
/** An address in California on Comcast. */
export const US_IP = '73.162.0.1';
/** An Amazon AWS address (a hosting network). */
export const AWS_IP = '52.95.110.1';

/** A person's browser session in London: interaction seen, nothing suspicious. */
export function personSession(overrides: Partial<IngestSession> = {}): IngestSession {
  return {
    session_id: randomUUID(),
    source: 'web',
    source_version: null,
    device_id: randomUUID(),
    browser_fingerprint: randomUUID().replace(/-/g, ''),
    user_agent: CHROME_MAC,
    languages: ['en-GB', 'en'],
    timezone: 'Europe/London',
    screen: { width: 1728, height: 1117 },
    cpu_cores: 8,
    memory: 8,
    automation: { webdriver: false, signals: [] },
    events: { mouse: 140, click: 4, keyboard: 38, touch: 0, clipboard: 0 },
    ...overrides,
  };
}

/** A challenge from POST /ingest/challenge, as the web SDK asks for one. */
export async function issueChallenge(
  ctx: TestContext,
  projectId = ctx.project.project_id,
): Promise<{ challenge: string; key: string; expires_at: string }> {
  const res = await request(ctx.app).post('/ingest/challenge').set('x-project-id', projectId);
  if (res.status !== 200) throw new Error(`challenge ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { challenge: string; key: string; expires_at: string };
}

/** The body bound to the challenge, as the web SDK binds it (`integrity`: the challenge and the MAC). */
export function bind(body: IngestSession, challenge: { challenge: string; key: string }): IngestSession {
  const { integrity: _old, ...content } = body;
  return {
    ...content,
    integrity: { challenge: challenge.challenge, mac: payloadMac(Buffer.from(challenge.key, 'hex'), content) },
  };
}

/** The headers a browser sends with the SDK's post: its user agent and languages. */
export function browserHeaders(body: IngestSession): Record<string, string> {
  const headers: Record<string, string> = {};
  if (body.user_agent) headers['user-agent'] = body.user_agent;
  if (body.languages?.length)
    headers['accept-language'] = body.languages.map((l, i) => (i ? `${l};q=${(1 - i / 10).toFixed(1)}` : l)).join(',');
  return headers;
}

export function scenario(ctx: TestContext, apiKey = ctx.project.api_key, projectId = ctx.project.project_id) {
  return {
    /** Posts the session as the SDK does, from `ip` (the test app trusts X-Forwarded-For from loopback). */
    async ingest(body: IngestSession, ip = LONDON_IP): Promise<string> {
      // A web post is bound to a fresh challenge, with the browser's headers; native apps send neither.
      const web = body.source === 'web';
      const send = async (post: IngestSession) => {
        const res = await request(ctx.app)
          .post('/ingest/session')
          .set('x-project-id', projectId)
          .set('x-forwarded-for', ip)
          .set(web ? browserHeaders(body) : {})
          .send(post);
        if (res.status !== 200) throw new Error(`ingest ${res.status}: ${JSON.stringify(res.body)}`);
      };
      if (!web || body.integrity) await send(body);
      else {
        // The SDK's first post goes right after load, before any interaction; the counts follow
        // in its periodic updates.
        const { events, ...facts } = body;
        await send(bind(events ? { ...facts, events: {} } : facts, await issueChallenge(ctx, projectId)));
        if (events) await send({ session_id: body.session_id, source: 'web', device_id: body.device_id, events });
      }
      return body.session_id;
    },
    authenticate(sessionId: string, account: AccountInput, linked = false) {
      return request(ctx.app)
        .post(`/session/authenticate${linked ? '?accounts_linked=true' : ''}`)
        .set('x-api-key', apiKey)
        .send({ session_id: sessionId, account });
    },
    async authenticated(sessionId: string, account: AccountInput, linked = false): Promise<AuthenticateResponse> {
      const res = await this.authenticate(sessionId, account, linked);
      if (res.status !== 200) throw new Error(`authenticate ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body as AuthenticateResponse;
    },
    async unauthenticated(sessionId: string, linked = false): Promise<UnauthenticatedResponse> {
      const res = await request(ctx.app)
        .post(`/session/unauthenticated${linked ? '?accounts_linked=true' : ''}`)
        .set('x-api-key', apiKey)
        .send({ session_id: sessionId });
      if (res.status !== 200) throw new Error(`unauthenticated ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body as UnauthenticatedResponse;
    },
    /** A session posted and authenticated in one step. */
    async signIn(
      account: AccountInput,
      session: Partial<IngestSession> = {},
      ip = LONDON_IP,
      linked = false,
    ): Promise<AuthenticateResponse> {
      const id = await this.ingest(personSession(session), ip);
      return this.authenticated(id, account, linked);
    },
  };
}

/** Adds `ip` to an operator list and waits until the running lists see it (the folder is polled every 20 ms). */
export async function listIp(ctx: TestContext, list: IpListName, ip: string): Promise<void> {
  addToIpList(ctx.ipListsDir, list, ip);
  const deadline = Date.now() + 10_000;
  let nudge = Date.now() + 1000;
  while (!ctx.ipLists.lookup(ip).some((m) => m.list === list)) {
    if (Date.now() > deadline) throw new Error(`${ip} never appeared on ${list}`);
    // A change made before the watcher's first look at a new file is its baseline: change it again.
    if (Date.now() > nudge) {
      fs.appendFileSync(path.join(ctx.ipListsDir, `${list}.txt`), '# touched\n');
      nudge = Date.now() + 1000;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}
