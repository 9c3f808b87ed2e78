/**
 * A small stacked bar chart in SVG (no chart library: the overview needs one chart): one bar
 * per day, a segment per series, scaled to the tallest day; the tallest value and the first and
 * last days are HTML text around it (so they stay legible when the SVG shrinks on a phone). For screen readers the SVG carries a summary as
 * its name and the figure a table of every value (visually hidden), so nothing is only drawn.
 */
import { Group, Table, Text, VisuallyHidden } from '@mantine/core';

export interface Series<K extends string> {
  key: K;
  label: string;
  color: string;
}

export function StackedBars<K extends string, R extends { day: string } & Record<K, number>>({
  title,
  rows,
  series,
}: {
  title: string;
  rows: readonly R[];
  series: readonly Series<K>[];
}) {
  const W = 720;
  const H = 180;
  const AXIS = 0;
  const BOTTOM = 1;
  const total = (r: R) => series.reduce((sum, s) => sum + r[s.key], 0);
  const max = Math.max(1, ...rows.map(total));
  const slot = (W - AXIS) / Math.max(1, rows.length);
  const bar = Math.max(2, slot * 0.7);
  const scale = (H - BOTTOM - 2) / max;
  const sums = series.map((s) => `${rows.reduce((n, r) => n + r[s.key], 0)} ${s.label}`).join(', ');
  const first = rows[0];
  const last = rows[rows.length - 1];
  return (
    <figure style={{ margin: 0 }}>
      <Text size="xs" aria-hidden>
        {max} a day at most
      </Text>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-label={`${title}: ${sums} from ${first?.day ?? ''} to ${last?.day ?? ''}`}
      >
        <line x1={AXIS} y1={H - BOTTOM} x2={W} y2={H - BOTTOM} stroke="#495057" />
        {rows.map((r, i) => {
          let y = H - BOTTOM;
          const x = AXIS + i * slot + (slot - bar) / 2;
          return (
            <g key={r.day}>
              {series.map((s) => {
                const h = r[s.key] * scale;
                y -= h;
                return h > 0 ? <rect key={s.key} x={x} y={y} width={bar} height={h} fill={s.color} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <Group justify="space-between" aria-hidden>
        <Text size="xs">{first?.day}</Text>
        <Text size="xs">{rows.length > 1 ? last?.day : ''}</Text>
      </Group>
      <Group gap="md" aria-hidden>
        {series.map((s) => (
          <Group key={s.key} gap={4}>
            <span style={{ display: 'inline-block', width: 12, height: 12, background: s.color }} />
            <Text size="sm">{s.label}</Text>
          </Group>
        ))}
      </Group>
      <VisuallyHidden>
        <Table aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Day</Table.Th>
              {series.map((s) => (
                <Table.Th key={s.key}>{s.label}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.day}>
                <Table.Td>{r.day}</Table.Td>
                {series.map((s) => (
                  <Table.Td key={s.key}>{r[s.key]}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </VisuallyHidden>
    </figure>
  );
}
