/**
 * Network intelligence through the real parts: the shipped IP data, the curated hosting ASNs,
 * lists synced by `trustgate iplist sync`'s code from a loopback server, ingestion over HTTP and
 * the Session API's answer.
 */
import request from 'supertest';
import type { Session } from '../../src/api-types';
import { syncIpLists, type IpListName } from '../../src/geo/ip-lists';
import { makeTestContext, type TestContext } from '../helpers/app';
import { LONDON_IP, personSession, scenario, US_IP } from '../helpers/evaluation';
import { listServer, relayCsv, RELAY_IP, torList, TOR_IP, vpnList, type ListServer } from '../helpers/list-server';

let ctx: TestContext;
let server: ListServer;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  server = await listServer();
});
afterAll(async () => {
  await server.close();
  await ctx.close();
});

/** An M247 address (AS9009, a VPN-carrying hosting network), located in Viet Nam. */
const M247_IP = '2.56.16.1';
/** A Mullvad VPN address (AS39351), located in Sweden. */
const MULLVAD_IP = '45.83.220.1';

const getSession = async (id: string) =>
  (await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key)).body as Session;

/** Syncs the lists from the loopback server into the context's folder and waits until the running lists have them. */
async function synced(lists: Partial<Record<IpListName, string>>, probe: [IpListName, string][]): Promise<void> {
  const outcomes = await syncIpLists(lists, {
    dir: ctx.ipListsDir,
    fetch,
    now: () => ctx.clock.now(),
    timeoutMs: 5000,
  });
  expect(outcomes.map((o) => o.ok)).toEqual(Object.keys(lists).map(() => true));
  const deadline = Date.now() + 10_000;
  while (!probe.every(([list, ip]) => ctx.ipLists.lookup(ip).some((m) => m.list === list && m.source === 'synced'))) {
    if (Date.now() > deadline) throw new Error('the synced lists never loaded');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('iCloud Private Relay', () => {
  it('when a session comes from a relay egress, then its connection type is private_relay once the relay ranges are synced', async () => {
    const p = scenario(ctx);
    const before = await p.ingest(personSession(), RELAY_IP);
    expect((await getSession(before)).network.connection_type).toBe('isp');

    server.serve('/egress-ip-ranges.csv', relayCsv());
    server.serve('/torbulkexitlist', torList());
    await synced({ relay: server.url('/egress-ip-ranges.csv'), tor: server.url('/torbulkexitlist') }, [
      ['relay', RELAY_IP],
      ['tor', TOR_IP],
    ]);

    const id = await p.ingest(personSession(), RELAY_IP);
    expect((await getSession(id)).network).toMatchObject({
      ip_address: RELAY_IP,
      connection_type: 'private_relay',
    });
    const evaluated = await p.unauthenticated(id);
    expect(evaluated.session.network).toMatchObject({ asn: 36183, connection_type: 'private_relay' });
    expect(evaluated.session.risk_signal_details.network).toContain('private_relay');
    expect(evaluated.session.risk_signals).toMatchObject({ proxy: true, vpn: false, tor: false, datacenter: false });
    // A relay egress is relay, not VPN; and it keeps the person's country: a far time zone does not move them.
    expect(evaluated.session.true_country_code).toBe('GB');
  });

  it('when a session comes from a Tor exit on the synced list, then tor is raised', async () => {
    const p = scenario(ctx);
    const evaluated = await p.unauthenticated(await p.ingest(personSession(), TOR_IP));
    expect(evaluated.session.risk_signals.tor).toBe(true);
    expect(evaluated.session.risk_signal_details.network).toContain('tor_exit_node');
  });
});

describe('hosting and VPN-carrying networks', () => {
  it('when a session comes from a curated hosting AS, then it is hosting and datacenter is raised', async () => {
    const p = scenario(ctx);
    const evaluated = await p.unauthenticated(await p.ingest(personSession(), M247_IP));
    expect(evaluated.session.network).toMatchObject({ asn: 9009, connection_type: 'hosting' });
    expect(evaluated.session.risk_signals.datacenter).toBe(true);
    expect(evaluated.session.risk_signal_details.network).toEqual(
      expect.arrayContaining(['hosting_asn', 'hosting_network_residential_device']),
    );
  });
});

describe('true_country_code', () => {
  it('when a person on a VPN exit keeps a time zone of another country, then the true country is the zone’s', async () => {
    const p = scenario(ctx);
    const id = await p.ingest(personSession({ timezone: 'America/Chicago' }), MULLVAD_IP);
    const s = await getSession(id);
    expect(s.location.country_code).toBe('SE');
    expect(s.true_country_code).toBe('US');
  });

  it('when the browser leaks its own address past the tunnel, then the true country is where that address is', async () => {
    const p = scenario(ctx);
    const id = await p.ingest(
      personSession({ timezone: 'Asia/Ho_Chi_Minh', webrtc_ips: ['192.168.1.20', LONDON_IP] }),
      M247_IP,
    );
    const s = await getSession(id);
    expect(s.location.country_code).toBe('VN');
    expect(s.true_country_code).toBe('GB');
  });

  it('when a traveller on an ordinary network keeps their home time zone, then the true country is where they are', async () => {
    const p = scenario(ctx);
    const id = await p.ingest(personSession({ timezone: 'Europe/Berlin' }), US_IP);
    expect((await getSession(id)).true_country_code).toBe('US');
  });

  it('when a VPN exit is in the browser’s own country, then the true country is that country', async () => {
    const p = scenario(ctx);
    const id = await p.ingest(personSession({ timezone: 'Europe/Stockholm' }), MULLVAD_IP);
    expect((await getSession(id)).true_country_code).toBe('SE');
  });
});
