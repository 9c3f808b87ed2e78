/**
 * The account's sessions (GET /sessions?account_id=, newest 20) drawn twice: over time (the
 * timeline: each session a mark at its start, as high as its account score, red when Fake)
 * and on a world map at its address's coordinates (the sessions' `latitude`/`longitude`).
 * The map's shapes are world-atlas's countries (ISC, Natural Earth 1:110m) projected by
 * d3-geo (ISC), loaded from the console's own bundle (a chunk of its own, fetched when an
 * account page first shows): no tile server, nothing from another host. Both drawings are
 * hidden from screen readers; the sessions table below them holds the same facts.
 */
import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { geoEqualEarth, geoPath, type GeoPermissibleObjects } from 'd3-geo';
import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../api';
import { RED, time } from '../../components/format';

const REAL = '#1f5fa8';
const NONE = '#4a4a4a';
const colourOf = (s: SessionSummary) => (s.decision === 'Fake' ? RED : s.decision === 'Real' ? REAL : NONE);

const W = 560;
const H = 180;
const PAD = { left: 36, right: 12, top: 10, bottom: 28 };

export function SessionsTimeline({ sessions }: { sessions: SessionSummary[] }) {
  const times = sessions.map((s) => Date.parse(s.start_time));
  const from = Math.min(...times);
  const to = Math.max(...times);
  const span = Math.max(to - from, 60_000);
  const x = (t: number) => PAD.left + ((t - from) / span) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);
  return (
    <div>
      <Text fw={600} size="sm">
        Over time (height: account score)
      </Text>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" aria-hidden="true" data-testid="sessions-timeline">
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="#495057" />
        <line x1={PAD.left} x2={PAD.left} y1={y(0)} y2={y(1)} stroke="#495057" />
        {[0, 0.5, 1].map((v) => (
          <text key={v} x={PAD.left - 4} y={y(v) + 4} fontSize={11} textAnchor="end" fill="#212529">
            {v}
          </text>
        ))}
        <text x={PAD.left} y={H - 6} fontSize={11} fill="#212529">
          {time(new Date(from).toISOString())}
        </text>
        <text x={W - PAD.right} y={H - 6} fontSize={11} textAnchor="end" fill="#212529">
          {time(new Date(to).toISOString())}
        </text>
        {sessions.map((s) => (
          <circle
            key={s.session_id}
            cx={x(Date.parse(s.start_time))}
            cy={y(s.account_score ?? 0)}
            r={5}
            fill={colourOf(s)}
            stroke="#ffffff"
          />
        ))}
      </svg>
    </div>
  );
}

type World = GeoPermissibleObjects & { features: GeoPermissibleObjects[] };

/** The countries' shapes, loaded once (a chunk of the console's own). */
let world: Promise<World> | undefined;
function loadWorld(): Promise<World> {
  world ??= Promise.all([import('world-atlas/countries-110m.json'), import('topojson-client')]).then(
    ([atlas, topojson]) => {
      const topology = (atlas as { default?: unknown }).default ?? atlas;
      const t = topology as Parameters<typeof topojson.feature>[0];
      return topojson.feature(t, (t.objects as Record<string, never>)['countries']!) as unknown as World;
    },
  );
  return world;
}

export function SessionsMap({ sessions }: { sessions: SessionSummary[] }) {
  const [shapes, setShapes] = useState<World>();
  useEffect(() => {
    let live = true;
    void loadWorld().then((w) => live && setShapes(w));
    return () => {
      live = false;
    };
  }, []);
  const located = sessions.filter((s) => s.latitude !== undefined && s.longitude !== undefined);
  const unlocated = sessions.length - located.length;
  const projection = geoEqualEarth().fitSize([W, 280], { type: 'Sphere' });
  const path = geoPath(projection);
  return (
    <div>
      <Text fw={600} size="sm">
        Where (the addresses’ locations)
      </Text>
      <svg viewBox={`0 0 ${W} 280`} width="100%" aria-hidden="true" data-testid="sessions-map">
        <path d={path({ type: 'Sphere' }) ?? ''} fill="#eef3f8" stroke="#adb5bd" />
        {shapes?.features.map((f, i) => (
          <path key={i} d={path(f) ?? ''} fill="#d5dbe1" stroke="#ffffff" strokeWidth={0.5} />
        ))}
        {located.map((s) => {
          const point = projection([s.longitude!, s.latitude!]);
          return point ? (
            <circle
              key={s.session_id}
              cx={point[0]}
              cy={point[1]}
              r={5}
              fill={colourOf(s)}
              stroke="#ffffff"
              data-testid="map-point"
            />
          ) : null;
        })}
      </svg>
      {unlocated > 0 && (
        <Text size="sm">
          {unlocated} of {sessions.length} sessions have no location (their countries are in the table).
        </Text>
      )}
    </div>
  );
}

export function SessionsPlot({ sessions }: { sessions: SessionSummary[] }) {
  if (sessions.length === 0) return null;
  const countries = [...new Set(sessions.map((s) => s.country_code).filter(Boolean))];
  return (
    <Card withBorder component="section" aria-labelledby="sessions-plot-title">
      <Title order={2} size="h4" id="sessions-plot-title">
        Sessions over time and place
      </Title>
      <Text size="sm">
        The newest {sessions.length}: blue Real, red Fake, grey not evaluated
        {countries.length ? `; from ${countries.join(', ')}` : ''}. The table below lists them.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SessionsTimeline sessions={sessions} />
        <SessionsMap sessions={sessions} />
      </SimpleGrid>
    </Card>
  );
}
