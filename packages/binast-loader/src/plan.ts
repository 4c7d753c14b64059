/** When a script runs relative to the document and its siblings, as the HTML spec defines for plain scripts. */
export type ExecutionMode = 'blocking' | 'defer' | 'async';

export interface ScriptPlan {
  /** `type="binast-module"`: executed as an ES module (always deferred unless `async`). */
  module: boolean;
  mode: ExecutionMode;
}

/**
 * The part of an HTMLScriptElement the plan depends on, so the rule is testable without a DOM. `async` is the IDL
 * property: true for the attribute and for scripts created by script ("force async"), false for parser-inserted ones.
 */
export interface ScriptAttributes {
  type: string;
  src: string;
  async: boolean;
  defer: boolean;
}

/** Markup that opts a script in: the browser ignores unknown types, so these never run without the loader. */
const classicType = 'binast';
const moduleType = 'binast-module';

/**
 * Decides how an opted-in script executes, or null when the element is not ours (other type, or no `src`: inline
 * BinaryAST is not a thing). Scripts found after parsing finished behave like dynamically inserted ones: async.
 */
export function planScript(script: ScriptAttributes, parsingDone: boolean): ScriptPlan | null {
  const type = script.type.trim().toLowerCase();
  if ((type !== classicType && type !== moduleType) || !script.src) return null;
  const module = type === moduleType;
  // Module scripts share the deferred list with `defer` classic scripts (HTML "list of scripts that will execute
  // when the document has finished parsing"); `defer` on a module is ignored, as in browsers.
  const mode = script.async || parsingDone ? 'async' : module || script.defer ? 'defer' : 'blocking';
  return { module, mode };
}
