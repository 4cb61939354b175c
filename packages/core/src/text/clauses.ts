/** Splits a request into its sentences and clauses (at `.`, `?`, `!`, `;` and line breaks), blank ones left out. */
export function splitClauses(query: string): string[] {
  return query.split(/[.?!;。？！；]+(?:\s+|$)|\n+/u).filter((clause) => clause.trim() !== '');
}
