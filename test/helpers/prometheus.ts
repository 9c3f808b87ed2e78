/**
 * GET /metrics read as Prometheus reads it, with parse-prometheus-text-format (prom2json's shape).
 * That shape folds a histogram's labelled children into one sample (their labels, counts and
 * sums are lost), so each histogram's series (`_bucket`, `_sum`, `_count`) are also read as
 * samples of their own: the same text with the histograms' TYPE lines made `untyped`.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parsePrometheusTextFormat = require('parse-prometheus-text-format') as (text: string) => Family[];

export interface Sample {
  labels?: Record<string, string>;
  value?: string;
}

export interface Family {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: Sample[];
}

export interface Scrape {
  /** Every family, by name, with its type and help. */
  families: Map<string, Family>;
  /** Every series by name (a histogram's `x_bucket`, `x_sum` and `x_count` among them). */
  series: Map<string, Sample[]>;
}

export function parseMetrics(text: string): Scrape {
  const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  const series = new Map<string, Sample[]>();
  for (const f of parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'))) {
    series.set(f.name, [...(series.get(f.name) ?? []), ...f.metrics]);
  }
  return { families, series };
}

const matches = (sample: Sample, labels: Record<string, string>) =>
  Object.entries(labels).every(([k, v]) => sample.labels?.[k] === v);

/** The value of the first sample of `name` (a series) whose labels include `labels`; 0 when there is none. */
export function seriesValue(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  return Number(scrape.series.get(name)?.find((s) => matches(s, labels))?.value ?? 0);
}

/** A counter's or gauge's value, or a histogram's count (`_count`); 0 when there is no such sample. */
export function valueOf(scrape: Scrape, family: string, labels: Record<string, string> = {}): number {
  const histogram = scrape.families.get(family)?.type === 'HISTOGRAM';
  return seriesValue(scrape, histogram ? `${family}_count` : family, labels);
}

/** Whether `family` has a sample whose labels include `labels`. */
export function hasSample(scrape: Scrape, family: string, labels: Record<string, string> = {}): boolean {
  const histogram = scrape.families.get(family)?.type === 'HISTOGRAM';
  return (scrape.series.get(histogram ? `${family}_count` : family) ?? []).some((s) => matches(s, labels));
}
