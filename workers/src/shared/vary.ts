/**
 * Adds `field` to `Vary` (once), keeping what the origin already varies on. `Vary: *` already covers every field, so
 * it is left alone.
 */
export function addVary(headers: Headers, field: string): void {
  const vary = headers.get('vary');
  const wanted = field.toLowerCase();
  if (!vary) headers.set('vary', field);
  else if (!vary.split(',').some((item) => [wanted, '*'].includes(item.trim().toLowerCase())))
    headers.set('vary', `${vary}, ${field}`);
}
