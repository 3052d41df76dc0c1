// The methodology's worked example: one real market's scores recomputed step by step with the methodology's functions.
import { metricDefinition, valuesOf } from '../../methodology/metrics.ts';
import { THRESHOLDS, computeScores, isDerived, workScores, type WorkedScore } from '../../methodology/scores.ts';
import { PATHS } from '../../contract/paths.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import { scoreDependencies } from '../../methodology/scores.ts';
import { IllustrativeNote, ReflowTable } from './components.tsx';
import { displayName, formatMetric, formatNumber, labelList, listWords } from './format.ts';
import { COMPOSITE_SCORES, SCORE_KEYS, derivation, scoreLabel, scoreOf } from './scores.ts';
import type { Site } from './site.ts';

const two = (n: number): string => formatNumber(n, 2);

/** The first market, by id, with every score: the example then shows every formula. */
export function exampleMarket(profiles: readonly AssembledProfile[]): AssembledProfile | undefined {
  return profiles.find((p) => SCORE_KEYS.every((k) => scoreOf(p.profile.scores, k) !== undefined)) ?? profiles[0];
}

function Step({ worked }: { worked: WorkedScore }) {
  return (
    <li>
      <strong>{scoreLabel(worked.key)}</strong>
      <ul>
        {worked.terms.map((t) =>
          t.kind === 'threshold' ? (
            <li key={t.key}>
              s({t.key} = {two(t.input)}) with 0 at {formatNumber(THRESHOLDS[t.key].zeroAt)} and 100 at {formatNumber(THRESHOLDS[t.key].fullAt)} ={' '}
              <strong>{two(t.scaled)}</strong>
            </li>
          ) : null,
        )}
        <li>
          <code>
            {worked.terms.map((t) => `${formatNumber(t.weight, 1)} × ${t.kind === 'score' ? formatNumber(t.scaled) : two(t.scaled)}`).join(' + ')} ={' '}
            {two(worked.sum)}
          </code>
          , rounded: <strong>{worked.score}</strong>
        </li>
      </ul>
    </li>
  );
}

export function WorkedExample({ site }: { site: Site }) {
  const example = exampleMarket(site.profiles);
  if (example === undefined) return null;
  const values = valuesOf(example.profile.metrics);
  // The parts before the scores that combine them, as the formulas above list them.
  const all = workScores(values);
  const worked = [...all.filter((w) => !COMPOSITE_SCORES.includes(w.key)), ...all.filter((w) => COMPOSITE_SCORES.includes(w.key))];
  const published = example.profile.scores;
  const recomputed = computeScores(values);
  const matches = SCORE_KEYS.every((k) => scoreOf(published, k) === scoreOf(recomputed, k) && worked.find((w) => w.key === k)?.score === scoreOf(published, k));
  const deps = scoreDependencies();
  const used = [...new Set(SCORE_KEYS.flatMap((k) => deps[k]))];
  const inputs = worked.flatMap((w) => w.terms).flatMap((t) => (isDerived(t.key) ? [{ ...t, key: t.key }] : []));
  const partial = site.profiles.find((p) => p.profile.coverage.missing.length > 0);
  return (
    <section aria-labelledby="worked-example">
      <h2 id="worked-example">Worked example: {displayName(example.market)}</h2>
      <p>
        The published numbers of <a href={site.href(PATHS.marketPage(example.market.id))}>{displayName(example.market)}</a>, run through the formulas above.
      </p>
      {example.profile.illustrativeScores === undefined ? null : (
        <p class="notice">
          <IllustrativeNote site={site} profiles={[example]} />
        </p>
      )}
      <ReflowTable>
        <table>
          <caption>Metrics of {displayName(example.market)} the scores read</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" class="num">
                Value
              </th>
            </tr>
          </thead>
          <tbody>
            {used.map((id) => {
              const m = example.profile.metrics[id];
              return (
                <tr key={id}>
                  <th scope="row">
                    <code>{id}</code>
                  </th>
                  <td data-label="Value" class="num">
                    {m === undefined ? 'not available' : formatMetric(m)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ReflowTable>
      <ol class="steps">
        {inputs.length > 0 ? (
          <li>
            <strong>Derived inputs</strong>
            <ul>
              {inputs.map((t) => (
                <li key={t.key}>
                  <code>
                    {t.key} = {derivation(t.key, (id) => formatNumber(values[id] ?? NaN))}
                  </code>{' '}
                  = <strong>{two(t.input)}</strong>
                </li>
              ))}
            </ul>
          </li>
        ) : null}
        {worked.map((w) => (
          <Step key={w.key} worked={w} />
        ))}
      </ol>
      <p class={matches ? 'confirm' : 'notice notice-missing'}>
        {matches
          ? `These are the scores the profile publishes: ${SCORE_KEYS.map((k) => `${k} ${scoreOf(published, k) ?? 'not computed'}`).join(', ')}.`
          : 'The recomputed scores differ from the published ones; please report this.'}
      </p>
      {partial === undefined ? null : (
        <p>
          When an input is missing the score is left out: <a href={site.href(PATHS.marketPage(partial.market.id))}>{displayName(partial.market)}</a> has no{' '}
          {labelList(partial.profile.coverage.missing.map((m) => metricDefinition(m)?.label ?? m))}, so its profile carries{' '}
          {listWords(SCORE_KEYS.filter((k) => scoreOf(partial.profile.scores, k) !== undefined))} only.
        </p>
      )}
    </section>
  );
}
