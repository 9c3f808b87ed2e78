/**
 * Operators of the console (docs/console-auth.md): adding, listing and disabling them (the
 * `trustgate user` command), signing in with email and password, and the sessions that follow.
 *
 * - A session token is 256 random bits, given to the browser in the cookie and stored only as
 *   its SHA-256; its CSRF token is an HMAC of the fixed label below under the session token, so
 *   it is bound to the session, needs no storage, and reveals nothing of the session token.
 * - A session ends at its absolute expiry (`ttlMs` after sign-in), after `idleMs` without a
 *   request, at logout, or when its operator is disabled. `last_seen_at` is written at most
 *   once a minute per session, so reading the console does not write at every request.
 * - An unknown email, a disabled operator and a wrong password are one answer (undefined), and
 *   the unknown email spends the time of a password check too (security/passwords.ts).
 */
import { createHash, createHmac } from 'node:crypto';
import type { Operator, OperatorRole } from '../api-types';
import type { Clock, Random } from '../clock';
import { HOUR_MS } from '../domain/numbers';
import { isOperatorRole, normaliseEmail } from '../domain/operators';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { OidcIdentity } from '../security/oidc';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyNothing, verifyPassword } from '../security/passwords';
import { constantTimeEqual } from '../security/secrets';
import type { Db } from '../storage/db';
import type { OperatorRecord, OperatorRepository } from '../storage/repositories/operators';
import type { Project, ProjectRepository } from '../storage/repositories/projects';
import { withDeps } from '../with-deps';

export const DEFAULT_CONSOLE_SESSION_TTL_MS = 12 * HOUR_MS;
export const DEFAULT_CONSOLE_SESSION_IDLE_MS = HOUR_MS;
/** How often a session's last use is written (at most). */
const TOUCH_EVERY_MS = 60_000;

export interface OperatorDeps {
  db: Db;
  clock: Clock;
  random: Random;
  operators: OperatorRepository;
  projects: ProjectRepository;
  /** How long a console session lasts at most (config CONSOLE_SESSION_TTL_MINUTES). */
  consoleSessionTtlMs?: number;
  /** How long a console session lasts without a request (config CONSOLE_SESSION_IDLE_MINUTES). */
  consoleSessionIdleMs?: number;
}

/** A signed-in operator: who, in which project, until when, and the session's CSRF token. */
export interface ConsoleContext {
  operator: Operator;
  project: Project;
  csrfToken: string;
  expiresAt: Date;
}

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The CSRF token of a session (see above). */
export const csrfTokenOf = (sessionToken: string): string =>
  createHmac('sha256', sessionToken).update('trustgate console csrf v1').digest('base64url');

/** Whether `given` is the session's CSRF token (constant time). */
export const csrfTokenMatches = (context: Pick<ConsoleContext, 'csrfToken'>, given: string | undefined): boolean =>
  given !== undefined && constantTimeEqual(given, context.csrfToken);

export function operatorView(o: OperatorRecord): Operator {
  return { id: o.id, project_id: o.projectId, email: o.email, role: o.role, created_at: o.createdAt.toISOString() };
}

/** An email a sign-in can be made with: one `@` with something on each side, at most 254 characters. */
function checkedEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (normalised.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(normalised))
    throw new BadRequestError(
      `email ${JSON.stringify(email)} is not an email address (one @, no spaces, at most 254 characters)`,
    );
  return normalised;
}

/** A new session of an operator who has proven who they are, and its token (for the cookie). */
async function openSession(
  deps: OperatorDeps,
  found: OperatorRecord,
): Promise<(ConsoleContext & { token: string }) | undefined> {
  const { db, clock, random, operators, projects } = deps;
  const project = await projects.findWithRules(found.projectId);
  if (!project) return undefined;
  const now = clock.now();
  const token = random.bytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + (deps.consoleSessionTtlMs ?? DEFAULT_CONSOLE_SESSION_TTL_MS));
  await db.transaction(async (trx) => {
    await operators.deleteExpiredSessions(now, trx);
    await operators.insertSession(
      { tokenHash: hashToken(token), operatorId: found.id, createdAt: now, expiresAt, lastSeenAt: now },
      trx,
    );
  });
  return { operator: operatorView(found), project, csrfToken: csrfTokenOf(token), expiresAt, token };
}

/**
 * Adds an operator to a project (`trustgate user add`); the password is hashed here and
 * nowhere kept. Without one (null: `--sso-only`) the operator signs in through OpenID
 * Connect only: the stored hash is of 256 random bits nobody is given.
 */
async function add(
  { clock, random, operators, projects }: OperatorDeps,
  input: { projectId: string; email: string; role: string; password: string | null },
): Promise<Operator> {
  const email = checkedEmail(input.email);
  if (!isOperatorRole(input.role))
    throw new BadRequestError(`role ${JSON.stringify(input.role)} is not one of viewer, analyst, admin`);
  if (input.password !== null && [...input.password].length < MIN_PASSWORD_LENGTH)
    throw new BadRequestError(`password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (!(await projects.findById(input.projectId))) throw new NotFoundError('project', input.projectId);
  if (await operators.findByEmail(email)) throw new ConflictError(`an operator with the email ${email} exists`);
  const record: OperatorRecord = {
    id: random.uuid(),
    projectId: input.projectId,
    email,
    role: input.role as OperatorRole,
    passwordHash: await hashPassword(input.password ?? random.bytes(32).toString('base64url')),
    createdAt: clock.now(),
    disabledAt: null,
  };
  await operators.insert(record);
  return operatorView(record);
}

async function list({ operators }: OperatorDeps, projectId?: string): Promise<(Operator & { disabled: boolean })[]> {
  return (await operators.list(projectId)).map((o) => ({ ...operatorView(o), disabled: o.disabledAt !== null }));
}

/** Disables the operator and ends its sessions, in one transaction; false when it was disabled already. */
async function disable({ db, clock, operators }: OperatorDeps, email: string): Promise<boolean> {
  const found = await operators.findByEmail(normaliseEmail(email));
  if (!found) throw new NotFoundError('operator', normaliseEmail(email));
  return db.transaction(async (trx) => {
    const changed = await operators.disable(found.id, clock.now(), trx);
    await operators.deleteSessionsOf(found.id, trx);
    return changed;
  });
}

/**
 * Signs an operator in: a new session and its token (for the cookie), or undefined for an
 * unknown email, a disabled operator or a wrong password alike.
 */
async function login(
  deps: OperatorDeps,
  email: string,
  password: string,
): Promise<(ConsoleContext & { token: string }) | undefined> {
  const found = await deps.operators.findByEmail(normaliseEmail(email));
  if (!found || found.disabledAt !== null) return verifyNothing(password).then(() => undefined);
  if (!(await verifyPassword(found.passwordHash, password))) return undefined;
  return openSession(deps, found);
}

/**
 * Signs in the operator whose email a provider vouched for (OpenID Connect: the ID token's
 * `email`, with `email_verified` true); the operator must exist and be active. The refusal
 * says why, for the sign-in page: no verified email, or no active operator with it.
 */
async function signInWith(
  deps: OperatorDeps,
  identity: OidcIdentity,
): Promise<(ConsoleContext & { token: string }) | { refused: 'email_unverified' | 'unknown_operator' }> {
  if (identity.email === undefined || !identity.emailVerified) return { refused: 'email_unverified' };
  const found = await deps.operators.findByEmail(normaliseEmail(identity.email));
  if (!found || found.disabledAt !== null) return { refused: 'unknown_operator' };
  return (await openSession(deps, found)) ?? { refused: 'unknown_operator' };
}

/** The signed-in operator of a session token; undefined when the session is unknown, ended or its operator disabled. */
async function session(deps: OperatorDeps, token: string): Promise<ConsoleContext | undefined> {
  const { clock, operators, projects } = deps;
  const idleMs = deps.consoleSessionIdleMs ?? DEFAULT_CONSOLE_SESSION_IDLE_MS;
  const tokenHash = hashToken(token);
  const found = await operators.findSession(tokenHash);
  if (!found || found.operator.disabledAt !== null) return undefined;
  const now = clock.now().getTime();
  const { session } = found;
  if (now >= session.expiresAt.getTime() || now - session.lastSeenAt.getTime() >= idleMs) {
    await operators.deleteSession(tokenHash);
    return undefined;
  }
  if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await operators.touchSession(tokenHash, clock.now());
  const project = await projects.findWithRules(found.operator.projectId);
  if (!project) return undefined;
  return {
    operator: operatorView(found.operator),
    project,
    csrfToken: csrfTokenOf(token),
    expiresAt: session.expiresAt,
  };
}

/** Ends the session of this token (here and in every process: it is gone from the database). */
async function logout({ operators }: OperatorDeps, token: string): Promise<void> {
  await operators.deleteSession(hashToken(token));
}

export function makeOperatorUseCases(deps: OperatorDeps) {
  const given = withDeps(deps);
  return {
    add: given(add),
    list: given(list),
    disable: given(disable),
    login: given(login),
    signInWith: given(signInWith),
    session: given(session),
    logout: given(logout),
  };
}

export type OperatorUseCases = ReturnType<typeof makeOperatorUseCases>;
