/** What claiming bytes needs of a phase: its budget and what it has issued so far. */
export interface ByteBudget {
  readonly options: { readonly maxBytesPerDirection: number };
  issuedBytes: number;
}

/** Takes up to `wantedBytes` from the direction's byte budget; 0 once it is spent. */
export function claimBytes(budget: ByteBudget, wantedBytes: number): number {
  const remainingBytes = budget.options.maxBytesPerDirection - budget.issuedBytes;
  if (remainingBytes <= 0) return 0;
  const sizeBytes = Math.min(wantedBytes, remainingBytes);
  budget.issuedBytes += sizeBytes;
  return sizeBytes;
}
