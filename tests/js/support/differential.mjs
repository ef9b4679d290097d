// The loop every randomized comparison shares (fuzz.mjs, crossings.mjs): `cases` rounds,
// each told how to report a disagreement; all are counted, the first `keep` kept in full
// to show, and `progress(done)` is called every `every` rounds (never when 0).

/** `{count, disagreements}` after `round(disagree)` ran `cases` times. */
export function differential(cases, { keep = 3, every = 0, progress = () => {} }, round) {
  const disagreements = [];
  let count = 0;
  const disagree = (found) => {
    count += 1;
    if (disagreements.length < keep) disagreements.push(found);
  };
  for (let done = 1; done <= cases; done++) {
    round(disagree);
    if (every > 0 && done % every === 0) progress(done);
  }
  return { count, disagreements };
}
