/**
 * A customer's page using @trustgate/web as installed from its tarball: type-checked by the pack
 * test outside the repository like client.ts (correct code compiles, `@ts-expect-error` lines
 * must not).
 */
import { load, reinitialize, session, type SessionHandle, type Trustgate, type TrustgateOptions } from '@trustgate/web';

const options: TrustgateOptions = { projectId: 'PROJECT_ID', endpoint: 'https://trustgate.example.com' };

export async function correct(): Promise<string> {
  const sdk: Trustgate = load(options);
  const handle: SessionHandle = await session();
  await sdk.reinitialize();
  const renewed = await reinitialize();
  return `${handle.session_id} ${renewed.session_id}`;
}

export async function wrong(): Promise<void> {
  // @ts-expect-error load needs the project id
  load({ endpoint: 'https://trustgate.example.com' });
  // @ts-expect-error the session id is a string
  const n: number = (await session()).session_id;
  // @ts-expect-error the handle has no such member
  void (await session()).no_such_field;
  // @ts-expect-error session takes no argument
  await session('PROJECT_ID');
  void n;
}
