/**
 * The slots `0..count-1` that pass `keep`, sorted by `order`, at most `wanted` of them (the first
 * ones in that order): a sorted buffer that a candidate enters only when it beats the last one.
 */
export function bestSlots(
  count: number,
  wanted: number,
  keep: (slot: number) => boolean,
  order: (a: number, b: number) => number,
): number[] {
  if (wanted >= count) {
    const all: number[] = [];
    for (let slot = 0; slot < count; slot++) if (keep(slot)) all.push(slot);
    return all.sort(order);
  }
  const best: number[] = [];
  if (wanted <= 0) return best;
  for (let slot = 0; slot < count; slot++) {
    if (best.length === wanted && order(slot, best[wanted - 1]!) >= 0) continue;
    if (!keep(slot)) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (order(best[middle]!, slot) < 0) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, slot);
    if (best.length > wanted) best.pop();
  }
  return best;
}
