/**
 * A pure function of a string, remembered: the answer for a key already seen is returned without
 * recomputing it. For work that costs tens of microseconds and whose keys repeat in real traffic
 * (a user-agent string: a few thousand distinct ones make most of any site's requests). The map
 * is emptied past `max` keys, so a client sending endless distinct keys costs memory up to `max`
 * entries and nothing else. Answers are shared between callers: treat them as read-only.
 */
export function remembered<T>(max: number, compute: (key: string) => T): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    const known = answers.get(key);
    if (known !== undefined || answers.has(key)) return known as T;
    const answer = compute(key);
    if (answers.size >= max) answers.clear();
    answers.set(key, answer);
    return answer;
  };
}
