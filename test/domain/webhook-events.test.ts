/**
 * An erased account's id in a stored event's body (withoutAccounts): every whole value that is
 * the id is replaced, wherever the event carries it, and nothing else changes.
 */
import { ERASED_ACCOUNT, withoutAccounts } from '../../src/domain/webhook-events';

describe('withoutAccounts', () => {
  it('when a verification event names the account as its own and among its matches, then both are redacted', () => {
    const body = {
      request_id: 'r1',
      data: {
        metadata: { account_id: 'gone@example.com', session_id: 's1' },
        matches: {
          num_accounts_linked: 2,
          accounts_linked: [
            { account_id: 'kept', match_types: ['face'] },
            { account_id: 'gone@example.com', match_types: ['browser'] },
          ],
        },
        score: 0.4,
        flag: true,
        none: null,
      },
    };
    const out = withoutAccounts(JSON.stringify(body), new Set(['gone@example.com']));
    expect(JSON.parse(out!)).toEqual({
      request_id: 'r1',
      data: {
        metadata: { account_id: ERASED_ACCOUNT, session_id: 's1' },
        matches: {
          num_accounts_linked: 2,
          accounts_linked: [
            { account_id: 'kept', match_types: ['face'] },
            { account_id: ERASED_ACCOUNT, match_types: ['browser'] },
          ],
        },
        score: 0.4,
        flag: true,
        none: null,
      },
    });
  });

  it('when the event names none of the ids (an id only inside another text), then undefined', () => {
    const body = JSON.stringify({ data: { account_id: 'other', list_name: 'list-of-gone', tags: ['gone-ish'] } });
    expect(withoutAccounts(body, new Set(['gone']))).toBeUndefined();
  });
});
