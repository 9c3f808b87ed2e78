/**
 * The authorisation table (domain/operators.ts) against the contract: every operation of the
 * spec's paths has an entry, `public` exactly when the operation asks for no project
 * credential, `full_key` only where the cookie is no credential; and the rule for each
 * credential, operation by operation.
 */
import {
  OPERATION_ROLES,
  OPERATOR_ROLES,
  refusal,
  type Credential,
  type Requirement,
} from '../../src/domain/operators';
import { bundledSpec } from '../../src/spec';

interface SpecOperation {
  operationId: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const spec = bundledSpec() as unknown as {
  security: Record<string, string[]>[];
  paths: Record<string, Partial<Record<(typeof METHODS)[number], SpecOperation>>>;
};
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  METHODS.flatMap((method) => (item[method] ? [{ path, method, ...item[method]! }] : [])),
);
const roles = OPERATION_ROLES as Record<string, Requirement | undefined>;

test('when the spec is read, then every operation has a role, public exactly when it asks for no project credential', () => {
  expect(operations.length).toBeGreaterThan(30);
  for (const op of operations) {
    const security = op.security ?? spec.security;
    const projectCredential = security.some((s) => 'ApiKeyAuth' in s || 'ConsoleSession' in s);
    expect({ operationId: op.operationId, role: roles[op.operationId] }).toEqual({
      operationId: op.operationId,
      role: projectCredential ? expect.stringMatching(/^(viewer|analyst|admin|full_key)$/) : 'public',
    });
    // An operation for full keys alone does not list the cookie: a request with it gets the contract's 401.
    if (roles[op.operationId] === 'full_key')
      expect({ operationId: op.operationId, security }).toEqual({
        operationId: op.operationId,
        security: [{ ApiKeyAuth: [] }],
      });
  }
  // No entry for an operation that is gone.
  const ids = new Set(operations.map((o) => o.operationId));
  expect(Object.keys(OPERATION_ROLES).filter((id) => !ids.has(id))).toEqual([]);
});

test('when an operation is a GET, then a viewer may call it (the least role reads everything it can see), but the one GET that writes', () => {
  const gets = operations.filter((o) => o.method === 'get' && roles[o.operationId] !== 'public');
  expect(gets.filter((o) => roles[o.operationId] === 'full_key').map((o) => o.operationId)).toEqual([
    'getVerificationSession',
  ]);
  for (const op of gets.filter((o) => roles[o.operationId] !== 'full_key'))
    expect({ id: op.operationId, role: roles[op.operationId] }).toEqual({ id: op.operationId, role: 'viewer' });
});

test('when any credential can be refused an operation, then the spec declares its 403 (response validation answers 500 for an undeclared one)', () => {
  const credentials: Credential[] = [
    { kind: 'api_key', scope: 'read_only' },
    { kind: 'api_key', scope: 'full' },
    ...OPERATOR_ROLES.flatMap((role) =>
      [true, false].map((csrfTokenMatches) => ({ kind: 'operator' as const, role, csrfTokenMatches })),
    ),
  ];
  const refusable = operations.filter((op) =>
    credentials.some((c) => refusal(op.operationId, op.method.toUpperCase(), c) !== undefined),
  );
  expect(refusable.length).toBeGreaterThan(10);
  expect(refusable.filter((op) => !('403' in (op.responses ?? {}))).map((op) => op.operationId)).toEqual([]);
});

describe('refusal', () => {
  test.each(operations.map((o) => [o.operationId, o.method.toUpperCase()] as const))(
    'when %s (%s) is called by each credential, then each role at or above the table’s may, with a CSRF token',
    (operationId, method) => {
      const required = roles[operationId]!;
      for (const role of OPERATOR_ROLES) {
        const allowed =
          required === 'public' ||
          (required !== 'full_key' && OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(required));
        const answer = refusal(operationId, method, { kind: 'operator', role, csrfTokenMatches: true });
        expect({ role, refused: answer !== undefined }).toEqual({ role, refused: !allowed });
      }
      const readOnly = refusal(operationId, method, { kind: 'api_key', scope: 'read_only' });
      expect(readOnly === undefined).toBe(required === 'public' || (method === 'GET' && required !== 'full_key'));
      expect(refusal(operationId, method, { kind: 'api_key', scope: 'full' })).toBeUndefined();
    },
  );

  test('when an operator sends a write without the CSRF token, then it is refused whatever its role; a read needs none', () => {
    expect(refusal('updateProject', 'PATCH', { kind: 'operator', role: 'admin', csrfTokenMatches: false })).toBe(
      'Missing or wrong x-csrf-token header',
    );
    expect(refusal('getProject', 'GET', { kind: 'operator', role: 'viewer', csrfTokenMatches: false })).toBeUndefined();
  });

  test('when the GET that writes is called by a read-only key or an operator of any role, then it is refused; a full key may', () => {
    const message = 'getVerificationSession creates data although it is a GET: only a full-access API key may call it';
    expect(refusal('getVerificationSession', 'GET', { kind: 'api_key', scope: 'read_only' })).toBe(message);
    for (const role of OPERATOR_ROLES)
      for (const csrfTokenMatches of [true, false])
        expect(refusal('getVerificationSession', 'GET', { kind: 'operator', role, csrfTokenMatches })).toBe(message);
    expect(refusal('getVerificationSession', 'GET', { kind: 'api_key', scope: 'full' })).toBeUndefined();
  });

  test('when an operation is not in the table, then it is refused', () => {
    expect(refusal('somethingNew', 'GET', { kind: 'api_key', scope: 'full' })).toMatch(/no role/);
  });
});
