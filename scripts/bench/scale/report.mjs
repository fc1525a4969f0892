// The side-by-side table of `npm run bench:scale` and the generated parts of docs/SCALE.md (between markers).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const P99_TARGET_MS = 50;
export const ADMIN_P99_TARGET_MS = 20;
export const RATIO_TARGET = 1.5;

const fmt = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

/** Whether a row meets its targets: p99 within 1.5× of the small copy's, and under the absolute bound. */
export function verdict(name, small, full) {
  if (!small || !full) return { ratio: Number.NaN, met: false, why: 'not measured' };
  if (name.startsWith('outbox drain')) {
    const ratio = small.textsPerSecond / full.textsPerSecond;
    return { ratio, met: ratio <= RATIO_TARGET, why: ratio <= RATIO_TARGET ? '' : 'rate fell' };
  }
  const ratio = full.p99 / Math.max(small.p99, 1);
  const bound = name.startsWith('admin') ? ADMIN_P99_TARGET_MS : P99_TARGET_MS;
  const why = [
    ratio > RATIO_TARGET ? `ratio > ${RATIO_TARGET}` : '',
    full.p99 > bound ? `p99 > ${bound} ms` : '',
    full.bad > 0 || small.bad > 0 ? 'non-2xx' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return { ratio, met: why === '', why };
}

const cell = (result, name) => {
  if (!result) return '–';
  if (name.startsWith('outbox drain')) return `${fmt(result.textsPerSecond, 0)} texts/s`;
  return `${fmt(result.p50)} / ${fmt(result.p99)} / ${fmt(result.rps, 0)}`;
};

/** Markdown rows: path | small | full | ratio | met. */
export function resultTable(names, small, full, labels) {
  const lines = [
    `| path | ${labels.small} p50 / p99 ms / req/s | ${labels.full} p50 / p99 ms / req/s | p99 ratio (${labels.full} / ${labels.small}) | met |`,
    '| --- | --- | --- | --- | --- |',
  ];
  for (const name of names) {
    const { ratio, met, why } = verdict(name, small[name], full[name]);
    lines.push(
      `| ${name} | ${cell(small[name], name)} | ${cell(full[name], name)} | ${fmt(ratio, 2)} | ${met ? 'yes' : `**no** (${why})`} |`,
    );
  }
  return lines.join('\n');
}

/**
 * CPU per request under load: the server process and PostgreSQL's backends (ms, from /proc). With the app
 * servers scaled out, PostgreSQL's share is what one database can give: 1,000 ms per core per second.
 */
export function cpuTable(names, small, full, labels) {
  const lines = [
    `| path | server ms/request, ${labels.small} | PostgreSQL ms/request, ${labels.small} | server ms/request, ${labels.full} | PostgreSQL ms/request, ${labels.full} | requests/s one PostgreSQL core serves, ${labels.full} |`,
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const name of names) {
    const a = small[name];
    const b = full[name];
    if (!a?.appCpuMs && !b?.appCpuMs) continue;
    lines.push(
      `| ${name} | ${fmt(a?.appCpuMs, 2)} | ${fmt(a?.dbCpuMs, 2)} | ${fmt(b?.appCpuMs, 2)} | ${fmt(b?.dbCpuMs, 2)} | ${fmt(1000 / b?.dbCpuMs, 0)} |`,
    );
  }
  return lines.join('\n');
}

/** The plans section: per path, each statement's buffers at both sizes, sequential scans, the full plan. */
export function plansSection(names, plans, labels) {
  const out = [
    `| path | statements | buffers per request, ${labels.small} | buffers per request, ${labels.full} | growth | Seq Scan on a growing table (${labels.full}) |`,
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const name of names) {
    const small = plans.small[name] ?? [];
    const full = plans.full[name] ?? [];
    const sum = (list) => list.reduce((total, s) => total + s.buffers, 0);
    const seq = [...new Set(full.flatMap((s) => s.seqScans))];
    out.push(
      `| ${name} | ${full.length} | ${sum(small)} | ${sum(full)} | ${fmt(sum(full) / Math.max(sum(small), 1), 2)}× | ${seq.length ? `**${seq.join(', ')}**` : 'none'} |`,
    );
  }
  out.push('');
  for (const name of names) {
    const full = plans.full[name] ?? [];
    const small = plans.small[name] ?? [];
    out.push(`### ${name}`, '');
    full.forEach((statement, index) => {
      const before = small.find((s) => s.text === statement.text);
      out.push(
        `${index + 1}. ${statement.seqScans.length ? `**Seq Scan on ${statement.seqScans.join(', ')}**; ` : ''}buffers ${before ? before.buffers : '–'} (${labels.small}) → ${statement.buffers} (${labels.full}), ${fmt(statement.ms, 2)} ms at ${labels.full}`,
        '',
        '<details><summary>SQL and plan</summary>',
        '',
        '```sql',
        statement.text.length > 1500 ? `${statement.text.slice(0, 1500)} …` : statement.text,
        '```',
        '',
        '```',
        ...(statement.error ? [`could not explain: ${statement.error}`] : statement.plan),
        '```',
        '',
        '</details>',
        '',
      );
    });
  }
  return out.join('\n');
}

const MARK = (name, edge) => `<!-- bench:scale:${name}:${edge} -->`;

/** Replaces (or appends) the text between the markers `name` in docs/SCALE.md. */
export function writeSection(file, name, body) {
  const start = MARK(name, 'start');
  const end = MARK(name, 'end');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Scale\n';
  const block = `${start}\n${body}\n${end}`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${current.slice(0, from)}${block}${current.slice(to + end.length)}`
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
