import { centredClicks, INPUT_EVIDENCE, inputConditions, roboticTyping } from '../../src/domain/signals/input';

describe('robotic_typing', () => {
  it("when a driver's type() presses every key a millisecond or two after the last, then robotic", () => {
    expect(roboticTyping({ key_intervals: 18, fast_key_intervals: 18, steady_key_intervals: 4 })).toBe(true);
  });

  it('when keys come at one fixed delay, then robotic once there are enough intervals to judge', () => {
    expect(roboticTyping({ key_intervals: 18, fast_key_intervals: 0, steady_key_intervals: 17 })).toBe(true);
    expect(roboticTyping({ key_intervals: 7, fast_key_intervals: 0, steady_key_intervals: 7 })).toBe(false);
  });

  it('when a person types, with a few fast rollovers and a few steady pairs, then not robotic', () => {
    expect(roboticTyping({ key_intervals: 40, fast_key_intervals: 3, steady_key_intervals: 4 })).toBe(false);
    // Half fast is not more than half.
    expect(roboticTyping({ key_intervals: 10, fast_key_intervals: 5, steady_key_intervals: 6 })).toBe(false);
  });

  it('when there are too few intervals, or none are counted (pasting, autofill, an older SDK), then nothing is said', () => {
    expect(roboticTyping({ key_intervals: INPUT_EVIDENCE.min_key_intervals - 1, fast_key_intervals: 4 })).toBe(false);
    expect(roboticTyping({})).toBe(false);
    expect(roboticTyping(undefined)).toBe(false);
  });
});

describe('centred_clicks', () => {
  it("when a driver's click() lands on the centres of both elements it clicks, then centred", () => {
    expect(centredClicks({ pointer_clicks: 2, centred_clicks: 2 })).toBe(true);
    expect(centredClicks({ pointer_clicks: 5, centred_clicks: 3 })).toBe(true);
  });

  it("when one click of many lands on a centre, as one of a person's may, or only half do, then not centred", () => {
    expect(centredClicks({ pointer_clicks: 1, centred_clicks: 1 })).toBe(false);
    expect(centredClicks({ pointer_clicks: 12, centred_clicks: 1 })).toBe(false);
    expect(centredClicks({ pointer_clicks: 4, centred_clicks: 2 })).toBe(false);
    expect(centredClicks(undefined)).toBe(false);
  });

  it('when both hold, then both are named', () => {
    expect(inputConditions({ key_intervals: 9, fast_key_intervals: 9, pointer_clicks: 2, centred_clicks: 2 })).toEqual({
      robotic_typing: true,
      centred_clicks: true,
    });
  });
});
