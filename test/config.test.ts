/** Settings whose defaults and refusals matter beyond one module: several processes, the public base URL. */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import {
  BACKTEST_DEFAULTS,
  ConfigError,
  databaseLocation,
  DB_DEFAULTS,
  DEFAULT_API_KEY_CACHE_TTL_MS,
  IP_LIST_SOURCE_DEFAULTS,
  listenUrl,
  loadConfig,
} from '../src/config';
import { IP_LIST_NAMES } from '../src/geo/ip-lists';
import { PACKAGE_ROOT } from '../src/spec';

test('when nothing is set, then one process, limits counted in the database, keys kept for a few seconds', () => {
  expect(loadConfig({})).toMatchObject({
    webConcurrency: 1,
    rateLimitStore: 'database',
    apiKeyCacheTtlMs: DEFAULT_API_KEY_CACHE_TTL_MS,
  });
  expect(DEFAULT_API_KEY_CACHE_TTL_MS).toBe(5_000);
});

test('when WEB_CONCURRENCY is auto or a number, then that many processes; anything else is refused', () => {
  expect(loadConfig({ WEB_CONCURRENCY: 'auto' }).webConcurrency).toBe(os.availableParallelism());
  expect(loadConfig({ WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
  for (const bad of ['0', '-1', '1.5', 'all']) expect(() => loadConfig({ WEB_CONCURRENCY: bad })).toThrow(ConfigError);
});

test('when several processes share the SQLite file, then by default none maps it into memory; SQLITE_MMAP_MB set still decides', () => {
  // A connection that finds another process's commit drops its whole memory map (config/database.ts sqliteMmapDefault).
  expect(loadConfig({}).sqliteMmapMb).toBe(DB_DEFAULTS.sqliteMmapMb);
  expect(DB_DEFAULTS.sqliteMmapMb).toBeGreaterThan(0);
  expect(loadConfig({ WEB_CONCURRENCY: '1' }).sqliteMmapMb).toBe(DB_DEFAULTS.sqliteMmapMb);
  expect(loadConfig({ WEB_CONCURRENCY: '2' }).sqliteMmapMb).toBe(0);
  expect(loadConfig({ WEB_CONCURRENCY: '2', SQLITE_MMAP_MB: '512' }).sqliteMmapMb).toBe(512);
  expect(loadConfig({ SQLITE_MMAP_MB: '0' }).sqliteMmapMb).toBe(0);
});

test('when DATABASE_HOT_CONNECTIONS is unset, then the hot path has one connection apart from the pool; out of range is refused', () => {
  expect(loadConfig({})).toMatchObject({ databaseHotConnections: 1, databasePoolSize: 10 });
  expect(loadConfig({ DATABASE_HOT_CONNECTIONS: '6' }).databaseHotConnections).toBe(6);
  for (const bad of ['0', '-1', '1.5', 'many'])
    expect(() => loadConfig({ DATABASE_HOT_CONNECTIONS: bad })).toThrow(ConfigError);
});

test('when RATE_LIMIT_STORE or API_KEY_CACHE_TTL_MS is out of range, then start-up refuses it', () => {
  expect(loadConfig({ RATE_LIMIT_STORE: 'memory', API_KEY_CACHE_TTL_MS: '0' })).toMatchObject({
    rateLimitStore: 'memory',
    apiKeyCacheTtlMs: 0,
  });
  expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(ConfigError);
  expect(() => loadConfig({ API_KEY_CACHE_TTL_MS: '-1' })).toThrow(ConfigError);
});

test('when the BACKTEST_* settings are unset, then the defaults; set, they are taken; out of range, refused naming the variable', () => {
  expect(loadConfig({}).backtest).toEqual(BACKTEST_DEFAULTS);
  expect(BACKTEST_DEFAULTS).toMatchObject({ concurrency: 2, concurrencyPerProject: 1 });
  expect(
    loadConfig({
      BACKTEST_CONCURRENCY: '4',
      BACKTEST_CONCURRENCY_PER_PROJECT: '2',
      BACKTEST_WORK_BUDGET: '5000000',
      BACKTEST_TIME_MS: '60000',
    }).backtest,
  ).toEqual({ concurrency: 4, concurrencyPerProject: 2, workBudget: 5_000_000, timeBudgetMs: 60_000 });
  for (const [name, bad] of [
    ['BACKTEST_CONCURRENCY', '0'],
    ['BACKTEST_CONCURRENCY_PER_PROJECT', '1.5'],
    ['BACKTEST_WORK_BUDGET', '10'],
    ['BACKTEST_TIME_MS', 'forever'],
  ] as const)
    expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(`^${name} must be an integer`));
});

describe('PUBLIC_BASE_URL', () => {
  test('when it is an http or https URL, then every absolute URL is made on it (a path kept, its trailing slash dropped)', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://trustgate.example.com' }).publicBaseUrl).toBe(
      'https://trustgate.example.com',
    );
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://Example.COM:8443/trustgate/' }).publicBaseUrl).toBe(
      'https://example.com:8443/trustgate',
    );
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000/' }).publicBaseUrl).toBe('http://127.0.0.1:3000');
  });

  test.each([
    'javascript://attacker.invalid',
    'ftp://example.com',
    'example.com',
    'https://user:pw@example.com',
    'https://example.com/?a=1',
    'https://example.com/#x',
    'https://example.com?',
    'not a url',
  ])('when it is %j, then start-up refuses it, naming the setting and the rule', (raw) => {
    expect(() => loadConfig({ PUBLIC_BASE_URL: raw })).toThrow(
      new ConfigError(
        `PUBLIC_BASE_URL must be an http or https URL without credentials, query or fragment (e.g. https://trustgate.example.com), got ${JSON.stringify(raw)}`,
      ),
    );
  });

  test('when it is unset, then the listen address, as a browser on this machine reaches it', () => {
    expect(loadConfig({}).publicBaseUrl).toBeUndefined();
    expect(listenUrl('0.0.0.0', 3000)).toBe('http://127.0.0.1:3000');
    expect(listenUrl('::', 3000)).toBe('http://[::1]:3000');
    expect(listenUrl('fd00::5', 8080)).toBe('http://[fd00::5]:8080');
    expect(listenUrl('trustgate.internal', 80)).toBe('http://trustgate.internal:80');
  });
});

describe('DATA_DIR and the database a process names', () => {
  test('when DATA_DIR is unset, then the data folder of the package root; a relative one is the current folder’s', () => {
    expect(loadConfig({}).dataDir).toBe(path.join(PACKAGE_ROOT, 'data'));
    expect(loadConfig({ DATA_DIR: 'here' }).dataDir).toBe(path.join(process.cwd(), 'here'));
    expect(databaseLocation(loadConfig({ DATA_DIR: '/srv/tg' }))).toBe('sqlite /srv/tg/trustgate.sqlite');
  });

  test('when DATABASE_URL holds a password and options, then the name shows user, host, port and database only', () => {
    const named = (url: string) => databaseLocation(loadConfig({ DATABASE_URL: url }));
    expect(named('postgres://trustgate:s3cret@db.internal:6432/tg?sslmode=require')).toBe(
      'postgresql trustgate@db.internal:6432/tg',
    );
    expect(named('postgresql://db.internal/tg')).toBe('postgresql db.internal:5432/tg');
  });
});

describe('the IP lists `trustgate iplist sync` fetches', () => {
  test('when nothing is set, then the Tor exits, the iCloud Private Relay ranges and the VPN list, from their publishers', () => {
    expect(loadConfig({}).ipListSources).toEqual({
      tor: 'https://check.torproject.org/torbulkexitlist',
      relay: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
      vpn: 'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output/vpn/ipv4.txt',
    });
    expect(loadConfig({})).toMatchObject({ ipListSyncTimeoutMs: 120_000, ipListStaleDays: 7, ipListWatchMs: 5000 });
  });

  test('when IPLIST_WATCH_MS is set, then the lists are looked at that often; below 10 ms it is refused', () => {
    expect(loadConfig({ IPLIST_WATCH_MS: '250' }).ipListWatchMs).toBe(250);
    expect(() => loadConfig({ IPLIST_WATCH_MS: '5' })).toThrow(ConfigError);
    expect(() => loadConfig({ IPLIST_WATCH_MS: 'soon' })).toThrow(ConfigError);
  });

  test('when the config names the lists, then they are the lists the service has', () => {
    expect(Object.keys(IP_LIST_SOURCE_DEFAULTS).sort()).toEqual([...IP_LIST_NAMES].sort());
  });

  test('when a source is a mirror URL, a file, or off, then it is taken; another scheme is refused', () => {
    const sources = loadConfig({
      IPLIST_SOURCE_TOR: 'https://mirror.example/tor.txt',
      IPLIST_SOURCE_RELAY: 'off',
      IPLIST_SOURCE_VPN: 'lists/vpn.txt',
      IPLIST_SOURCE_DATACENTER: 'file:///srv/lists/dc.txt',
    }).ipListSources;
    expect(sources).toEqual({
      tor: 'https://mirror.example/tor.txt',
      vpn: path.join(process.cwd(), 'lists/vpn.txt'),
      datacenter: 'file:///srv/lists/dc.txt',
    });
    expect(() => loadConfig({ IPLIST_SOURCE_TOR: 'ftp://mirror.example/tor.txt' })).toThrow(ConfigError);
    expect(() => loadConfig({ IPLIST_STALE_DAYS: '0' })).toThrow(ConfigError);
  });
});

describe('METRICS, METRICS_TOKEN and the OpenTelemetry variables', () => {
  test('when nothing is set, then metrics on without a token, tracing off', () => {
    expect(loadConfig({})).toMatchObject({ metrics: true, metricsToken: undefined, tracing: undefined });
    expect(loadConfig({ METRICS: 'off', METRICS_TOKEN: 'scrape-token' })).toMatchObject({
      metrics: false,
      metricsToken: 'scrape-token',
    });
    expect(() => loadConfig({ METRICS: 'sometimes' })).toThrow(ConfigError);
  });

  test('when an OTLP endpoint is set, then tracing is on with the SDK defaults; the traces endpoint is used as is', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      exporter: 'otlp',
      endpoint: 'http://collector:4318/v1/traces',
      headers: {},
      serviceName: 'trustgate',
      resourceAttributes: {},
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example.com/custom/traces',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-tenant=t1',
        OTEL_SERVICE_NAME: 'trustgate-eu',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.05',
      }).tracing,
    ).toEqual({
      exporter: 'otlp',
      endpoint: 'https://otlp.example.com/custom/traces',
      headers: { authorization: 'Bearer abc', 'x-tenant': 't1' },
      serviceName: 'trustgate-eu',
      resourceAttributes: { 'deployment.environment': 'prod' },
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.05,
    });
    // OTEL_TRACES_EXPORTER=otlp alone: the SDK's default endpoint.
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).tracing?.endpoint).toBe('http://localhost:4318/v1/traces');
  });

  test('when tracing is disabled or its settings are malformed, then it is off or start-up refuses them', () => {
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).tracing,
    ).toBeUndefined();
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing,
    ).toBeUndefined();
    for (const env of [
      { OTEL_TRACES_EXPORTER: 'zipkin' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: '2' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER: 'sometimes' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'novalue' },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
    }
  });
});

describe('OIDC_* (the console single sign-on)', () => {
  const sso = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'trustgate' };

  it('is off without OIDC_ISSUER, and refuses its other variables alone', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'x' })).toThrow(
      new ConfigError('OIDC_CLIENT_ID set without OIDC_ISSUER'),
    );
  });

  it('takes the redirect URL from PUBLIC_BASE_URL (with its path) unless OIDC_REDIRECT_URL is given', () => {
    expect(loadConfig({ ...sso, PUBLIC_BASE_URL: 'https://tg.example.com/fraud/' }).oidc).toEqual({
      issuer: 'https://login.example.com',
      clientId: 'trustgate',
      redirectUrl: 'https://tg.example.com/fraud/console/oidc/callback',
      scopes: 'openid email',
      label: 'Single sign-on',
    });
    const own = loadConfig({
      ...sso,
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_REDIRECT_URL: 'https://console.example.com/console/oidc/callback',
      OIDC_SCOPES: 'openid  email profile',
      OIDC_LABEL: 'Acme SSO',
    }).oidc;
    expect(own).toMatchObject({
      clientSecret: 's3cret',
      redirectUrl: 'https://console.example.com/console/oidc/callback',
      scopes: 'openid email profile',
      label: 'Acme SSO',
    });
  });

  it.each([
    [{ OIDC_ISSUER: 'https://login.example.com' }, /OIDC_CLIENT_ID is required/],
    [{ ...sso }, /needs PUBLIC_BASE_URL/],
    [{ ...sso, OIDC_ISSUER: 'http://login.example.com', PUBLIC_BASE_URL: 'https://tg.example.com' }, /https URL/],
    [{ ...sso, OIDC_REDIRECT_URL: 'https://tg.example.com/elsewhere' }, /must end with \/console\/oidc\/callback/],
    [{ ...sso, PUBLIC_BASE_URL: 'https://tg.example.com', OIDC_SCOPES: 'openid' }, /must include openid and email/],
    [{ ...sso, OIDC_ISSUER: 'not a url', PUBLIC_BASE_URL: 'https://tg.example.com' }, /OIDC_ISSUER must be a URL/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts plain http for a provider and a console on this machine only', () => {
    const local = loadConfig({
      ...sso,
      OIDC_ISSUER: 'http://127.0.0.1:8080/realms/dev',
      PUBLIC_BASE_URL: 'http://localhost:3000',
    }).oidc;
    expect(local?.redirectUrl).toBe('http://localhost:3000/console/oidc/callback');
  });
});

describe('TRUSTGATE_SECRET_KEY and TRUSTGATE_PREVIOUS_SECRET_KEYS', () => {
  const key = () => randomBytes(32).toString('base64');

  test('when previous keys are given, then each is kept in order; unset, there are none', () => {
    const [a, b] = [key(), key()];
    expect(loadConfig({}).previousSecretKeys).toEqual([]);
    expect(loadConfig({ TRUSTGATE_PREVIOUS_SECRET_KEYS: `${a}, ${b},` }).previousSecretKeys).toEqual([a, b]);
  });

  test('when a key is not 32 bytes of base64, then start-up refuses it naming the setting (and which previous key)', () => {
    expect(() => loadConfig({ TRUSTGATE_SECRET_KEY: 'c2hvcnQ=' })).toThrow(/^TRUSTGATE_SECRET_KEY must be 32 bytes/);
    const bad = () => loadConfig({ TRUSTGATE_PREVIOUS_SECRET_KEYS: `${key()},${randomBytes(16).toString('base64')}` });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/^TRUSTGATE_PREVIOUS_SECRET_KEYS must be keys of 32 bytes.*key 2 is not$/);
  });
});
