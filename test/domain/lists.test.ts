import { listsAfter, stepsToAdd, stepsToRemove } from '../../src/domain/lists';
import { listEvent, ruleMatchedEvent, subscribesToListEvents } from '../../src/domain/webhook-events';

const NOW = new Date('2026-11-20T14:30:00.000Z');
const project = (events: string[]) =>
  ({ id: 'p1', webhookUrl: 'https://hooks.test/tg', webhookEvents: events }) as Parameters<typeof listEvent>[0];

describe('membership steps', () => {
  test('when a standard list is added, then the account is first taken off the other two, then added', () => {
    expect(stepsToAdd(['block'])).toEqual([
      { op: 'remove', lists: ['allow', 'main_account'] },
      { op: 'add', list: 'block' },
    ]);
  });

  test('when custom lists are added, then they are created first, once, then added in order', () => {
    expect(stepsToAdd(['vip', 'allow', 'promo'])).toEqual([
      { op: 'create', lists: ['vip', 'promo'] },
      { op: 'add', list: 'vip' },
      { op: 'remove', lists: ['block', 'main_account'] },
      { op: 'add', list: 'allow' },
      { op: 'add', list: 'promo' },
    ]);
  });

  test('when no list is given, then there is no step', () => {
    expect(stepsToAdd([])).toEqual([]);
    expect(stepsToRemove([])).toEqual([]);
    expect(stepsToRemove(['vip'])).toEqual([{ op: 'remove', lists: ['vip'] }]);
  });

  test('when the steps are replayed on a set of lists, then they leave what listsAfter computes', () => {
    const replay = (current: string[], added: string[]) => {
      const out = new Set(current);
      for (const step of stepsToAdd(added)) {
        if (step.op === 'add') out.add(step.list);
        if (step.op === 'remove') step.lists.forEach((l) => out.delete(l));
      }
      return [...out].sort();
    };
    for (const [current, added] of [
      [['allow', 'vip'], ['block']],
      [['block'], ['main_account', 'vip', 'allow']],
      [[], ['promo', 'block', 'promo']],
    ])
      expect(replay(current!, added!)).toEqual(listsAfter(current!, added!));
  });
});

describe('the events an evaluation queues', () => {
  let n = 0;
  const newId = () => `event-${++n}`;

  test('when the project is sent list events, then a change is one event naming the list, the account and the actor', () => {
    const webhook = listEvent(
      project(['list.account_added']),
      { change: 'added', accountId: 'user-1', listName: 'block', actor: 'rule:r1' },
      NOW,
      newId,
    );
    expect(webhook).toMatchObject({ projectId: 'p1', eventType: 'list.account_added', now: NOW });
    expect(webhook!.sessionId).toBe(webhook!.requestId);
    expect(JSON.parse(webhook!.body)).toEqual({
      request_id: webhook!.requestId,
      project_id: 'p1',
      event_type: 'list.account_added',
      occurred_at: NOW.toISOString(),
      data: { list_name: 'block', account_id: 'user-1', actor: 'rule:r1' },
    });
  });

  test('when the project is not sent the event or has no URL, then there is none and no id is drawn', () => {
    const before = n;
    const membership = { change: 'removed', accountId: 'user-1', listName: 'block', actor: 'cli' } as const;
    expect(listEvent(project(['list.account_added']), membership, NOW, newId)).toBeUndefined();
    expect(
      listEvent({ ...project(['list.account_removed']), webhookUrl: null }, membership, NOW, newId),
    ).toBeUndefined();
    expect(n).toBe(before);
    expect(subscribesToListEvents(project(['list.account_removed']))).toBe(true);
    expect(subscribesToListEvents(project(['evaluation.rule_matched']))).toBe(false);
  });

  test('when rules matched and the project is sent evaluation.rule_matched, then one event carries the data; else none', () => {
    const data = {
      evaluation_request_id: 'req-1',
      kind: 'authenticate' as const,
      session_id: 's1',
      account_id: 'user-1',
      decision: 'Fake' as const,
      decided_by: 'r1',
      rules_version: 3,
      matched: ['r1'],
      tags: [],
    };
    const sent = ruleMatchedEvent(project(['evaluation.rule_matched']), data, NOW, newId);
    expect(JSON.parse(sent!.body)).toMatchObject({ event_type: 'evaluation.rule_matched', data });
    expect(ruleMatchedEvent(project([]), data, NOW, newId)).toBeUndefined();
    expect(
      ruleMatchedEvent(project(['evaluation.rule_matched']), { ...data, matched: [] }, NOW, newId),
    ).toBeUndefined();
  });
});
