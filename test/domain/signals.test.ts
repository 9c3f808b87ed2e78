import { distanceKm, zoneOffsetMinutes, zonesOfCountry } from '../../src/domain/signals/geo';
import { noisyOr } from '../../src/domain/signals/context';

describe('signal geometry', () => {
  it('when London and New York are measured, then about 5,570 km apart', () => {
    expect(distanceKm(51.5074, -0.1278, 40.7128, -74.006)).toBeGreaterThan(5540);
    expect(distanceKm(51.5074, -0.1278, 40.7128, -74.006)).toBeLessThan(5600);
    expect(distanceKm(10, 10, 10, 10)).toBe(0);
  });

  it('when a zone observes summer time, then its offset depends on the date', () => {
    expect(zoneOffsetMinutes('Europe/London', new Date('2026-01-15T12:00:00Z'))).toBe(0);
    expect(zoneOffsetMinutes('Europe/London', new Date('2026-07-15T12:00:00Z'))).toBe(60);
    expect(zoneOffsetMinutes('Asia/Tokyo', new Date('2026-07-15T12:00:00Z'))).toBe(540);
    expect(zoneOffsetMinutes('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe(-210);
    expect(zoneOffsetMinutes('Not/AZone', new Date())).toBeUndefined();
  });

  it('when a country has several zones, then all are known', () => {
    expect(zonesOfCountry('US').has('America/Los_Angeles')).toBe(true);
    expect(zonesOfCountry('GB').has('Asia/Tokyo')).toBe(false);
  });

  it('when evidence is combined, then never lower than its strongest piece and never above 1', () => {
    expect(noisyOr([])).toBe(0);
    expect(noisyOr([0.5, 0.5])).toBeCloseTo(0.75);
    expect(noisyOr([1, 0.2])).toBe(1);
    expect(noisyOr([2, -1])).toBe(1);
  });
});
