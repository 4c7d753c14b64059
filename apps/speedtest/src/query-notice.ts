/**
 * Lists the query parameters the page could not use as given, one item each, under the data notice; hidden when
 * every parameter was fine. Shown before the test starts, so nobody reads a run as the one they asked for when a
 * typo made it another.
 */
export function showQueryProblems(list: HTMLElement, problems: readonly string[]): void {
  list.hidden = problems.length === 0;
  list.replaceChildren(
    ...problems.map((problem) => Object.assign(document.createElement('li'), { textContent: problem })),
  );
}
