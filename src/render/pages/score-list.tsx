// A market's scores, one line each: the score, a bar on the 0-100 scale, and what drives it (its inputs' figures, or the scores it combines).
import { metricDefinition, valuesOf } from '../../methodology/metrics.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import { DERIVED_INPUTS, isDerived, scoreDependencies, scoreDefinition, thresholdDefinition, workScores, type WorkedTerm } from '../../methodology/scores.ts';
import { GRID } from './chart-parts.ts';
import { IllustrativeTag } from './components.tsx';
import { formatNumber, formatPercent, formatShort, labelList, listWords, shortLabel } from './format.ts';
import { SCORE_KEYS, scoreColor, scoreLabel, scoreOf, type ScoreKey } from './scores.ts';

const metricLabel = (id: string): string => metricDefinition(id)?.label ?? id;

/** The track each bar is drawn on, the whole 0-100 scale: white inside a grey outline, so every score's colour stands out 3:1 on it. */
export const SCORE_TRACK = '#ffffff';

/** An input as a reader reads it: a share with its percent sign ("22.2%"), a ratio or a rate to one decimal ("5.9"). */
function inputFigure(term: WorkedTerm): string {
  if (term.kind === 'score') return formatNumber(term.input);
  if (!isDerived(term.key)) return formatShort(term.key, term.input);
  const percent = DERIVED_INPUTS[term.key].label.endsWith('%');
  return `${formatNumber(term.input, 1)}${percent ? '%' : ''}`;
}

/** What drives a score, in one line: each input with its figure ("rent relative to household income: 22.2%"), or each score it combines with its weight. */
function drivers(terms: readonly WorkedTerm[]): string {
  return terms
    .map((t) =>
      t.kind === 'threshold'
        ? `${thresholdDefinition(t.key).phrase}: ${inputFigure(t)}`
        : `${formatPercent(t.weight * 100)} ${scoreDefinition(t.key).phrase} (${inputFigure(t)})`,
    )
    .join('; ');
}

export function ScoreList({ profile }: { profile: AssembledProfile }) {
  const deps = scoreDependencies();
  const missing = new Set(profile.profile.coverage.missing);
  const { scores, scoreBounds, illustrativeScores } = profile.profile;
  const worked = new Map(workScores(valuesOf(profile.profile.metrics)).map((w) => [w.key, w]));
  return (
    <ul class="scores">
      {SCORE_KEYS.map((key: ScoreKey) => {
        const value = scoreOf(scores, key);
        const bound = scoreBounds?.[key];
        const lacking = deps[key].filter((m) => missing.has(m));
        const illustrative = deps[key].filter((m) => profile.profile.metrics[m]?.illustrative === true);
        // The open-ended figures a bound rests on, as published: "owner costs: $4,000+, open-ended".
        const open = (bound?.metrics ?? []).flatMap((id) => {
          const m = Object.values(profile.profile.metrics).find((x) => x?.id === id);
          return m?.qualifier === undefined ? [] : [`${shortLabel(id).toLowerCase()}: ${formatShort(id, m.value, m.qualifier)}, open-ended`];
        });
        return (
          <li key={key}>
            <span class="score-name">{scoreLabel(key)}</span>
            <span class="score-value">
              {value === undefined ? (
                'Not computed'
              ) : (
                <>
                  {value}
                  <span class="muted"> / 100</span>
                  {bound?.bound === undefined ? null : <span class="bound"> {bound.bound === 'upper' ? 'at most' : 'at least'}</span>}
                  {illustrativeScores?.includes(key) === true ? (
                    <>
                      {' '}
                      <IllustrativeTag />
                    </>
                  ) : null}
                </>
              )}
            </span>
            <svg class="score-bar" width="100%" height="10" aria-hidden="true" focusable="false">
              <rect x="0.5" y="0.5" width="99%" height="9" rx="2" fill={SCORE_TRACK} stroke={GRID} />
              {value === undefined ? null : <rect x="0" y="0" width={`${value}%`} height="10" rx="2" fill={scoreColor(key)} />}
            </svg>
            <span class="score-why">
              {value === undefined
                ? `Not computed: ${lacking.length > 0 ? `this market lacks ${labelList(lacking.map(metricLabel))}` : 'a score it combines is not computed'}. A missing score is left out, never shown as 0.`
                : drivers(worked.get(key)?.terms ?? [])}
              {bound === undefined ? null : <span class="missing-note">{`The true score lies from ${bound.low} to ${bound.high} (${listWords(open)}).`}</span>}
              {value !== undefined && illustrative.length > 0 ? (
                <span class="missing-note">
                  <strong>Illustrative:</strong> it reads {labelList(illustrative.map(metricLabel))}, which {illustrative.length === 1 ? 'is' : 'are'} not the
                  published {illustrative.length === 1 ? 'figure' : 'figures'}.
                </span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
