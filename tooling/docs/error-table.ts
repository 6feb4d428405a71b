/**
 * Docs check: run 的报错一览 (issue 23 item 4). What a README writer must do to pass:
 *
 *   The lesson whose API report first has `ToolRegistry#run` carries one table whose header's first cell contains
 *   「报错」. Each row's first cell is one inline code span: either a wording `run` can return, with `<…>` wherever the
 *   code fills in a value (`error: unknown tool "<工具名>"`), or a separator the code joins a list of wordings with
 *   (`; `, only punctuation, symbols and spaces). The rows and the code list the same wordings and separators: a new message
 *   without a row, a row whose wording drifted, a row for a message the code cannot produce all fail.
 *
 * The code's side is read off the syntax tree of `run`'s body (no running): every string and template literal is a
 * wording, except operands of `===`/`!==` (`issue.code === "unrecognized_keys"`, `typeof x !== "string"`) and
 * arguments of `.join(…)`; a `${…}` is a placeholder, unless it picks between string literals
 * (`${given ? "must be a string" : "is missing"}` gives one wording per branch). `.join("…")` on a `.map(…)` result
 * (or on a `const` initialised with one) is a separator; other joins (`issue.path.join(".")`) are inside a placeholder.
 *
 * `run` hands parts of its job to the lesson's own top-level functions (the defences `parseArguments`, `expectText`), so
 * their bodies are read too, one level deep: every top-level function `run` calls outside a `${…}` (a call inside a
 * placeholder only fills the hole, like `describeError`). A parameter that `run` passes a string or template for stands
 * for what `run` passes (`expectText(output, \`tool "${call.name}"\`)` makes `${who}` into `tool "<…>"`). A message such a
 * function throws (`throw new Error(\`…\`)`) while `run` calls it inside a `try` reaches the caller through that try's
 * `catch`: it gets the catch's returned template's opening text in front (`error: `), as the learner sees it.
 */
import ts from "typescript";
import { parseReadme, walk } from "../markdown.ts";
import type { DocsContext } from "./context.ts";

/** What every `<…>` / `${…}` becomes when wordings are compared. */
const HOLE = "<…>";
/** The API report key of the method whose wordings the table lists. */
export const RUN_KEY = "ToolRegistry#run";

export interface Wordings {
  wordings: string[];
  separators: string[];
}

/** The body of `class ToolRegistry { run(…) { … } }` in a lesson's code, if it has one. */
function runBody(code: string): ts.Block | undefined {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  for (const statement of sf.statements) {
    if (!ts.isClassDeclaration(statement) || statement.name?.text !== "ToolRegistry") continue;
    for (const member of statement.members) {
      if (ts.isMethodDeclaration(member) && ts.isIdentifier(member.name) && member.name.text === "run") return member.body;
    }
  }
  return undefined;
}

const isStringy = (n: ts.Node): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);
const isEquality = (n: ts.Node): boolean =>
  ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(n.operatorToken.kind);
const isJoinCall = (n: ts.Node): n is ts.CallExpression => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "join";
const isMapCall = (n: ts.Node): boolean => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "map";

/** What a parameter of a called helper stands for: the texts the caller passed for it. */
type Env = ReadonlyMap<string, string[]>;

/** The literal strings a `${…}` can stand for (`cond ? "a" : "b"`, or a parameter bound in env), or undefined when it is a placeholder. */
function choices(expr: ts.Expression, env: Env): string[] | undefined {
  const e = ts.isParenthesizedExpression(expr) ? expr.expression : expr;
  if (isStringy(e)) return [e.text];
  if (ts.isIdentifier(e) && env.has(e.text)) return env.get(e.text);
  if (ts.isTemplateExpression(e)) return expand(e, env);
  if (ts.isConditionalExpression(e)) {
    const a = choices(e.whenTrue, env);
    const b = choices(e.whenFalse, env);
    return a && b ? [...a, ...b] : undefined;
  }
  return undefined;
}

/** Every text a template can produce, `${…}` placeholders written as HOLE. */
function expand(template: ts.TemplateExpression, env: Env): string[] {
  let texts = [template.head.text];
  for (const span of template.templateSpans) {
    const options = choices(span.expression, env) ?? [HOLE];
    texts = texts.flatMap((t) => options.map((o) => t + o + span.literal.text));
  }
  return texts;
}

/** Reads wordings and separators off one function body into out; onCall sees every call it makes outside a placeholder. */
function readBody(body: ts.Node, env: Env, out: Wordings, onCall: (call: ts.CallExpression) => void, throwPrefix = "", passed: (n: ts.Node) => boolean = () => false): void {
  // `const problems = x.map(…)`: joining `problems` joins wordings
  const mapped = new Set<string>();
  const findMapped = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer !== undefined && isMapCall(n.initializer)) mapped.add(n.name.text);
    n.forEachChild(findMapped);
  };
  findMapped(body);
  const add = (set: string[], value: string): void => void (set.includes(value) || set.push(value));
  const separatorOf = (call: ts.CallExpression): void => {
    const receiver = (call.expression as ts.PropertyAccessExpression).expression;
    const joinsWordings = isMapCall(receiver) || (ts.isIdentifier(receiver) && mapped.has(receiver.text));
    const [arg] = call.arguments;
    if (joinsWordings && arg !== undefined && isStringy(arg)) add(out.separators, arg.text);
  };
  // inside a placeholder only separators count (the placeholder itself is a hole in its template), and whatever a
  // callback there returns (`${keys.map((k) => `unexpected "${k}"`).join(", ")}`: each element is a wording)
  const inHole = (n: ts.Node): void => {
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) return visit(n.body);
    if (isJoinCall(n)) separatorOf(n);
    n.forEachChild(inHole);
  };
  const thrown = (n: ts.Node): boolean => ts.isNewExpression(n.parent) && ts.isThrowStatement(n.parent.parent);
  function visit(n: ts.Node): void {
    // what run passes a helper for a parameter is not a wording by itself: it fills that parameter's holes
    if (passed(n)) return;
    if (ts.isTemplateExpression(n)) {
      for (const t of expand(n, env)) add(out.wordings, (thrown(n) ? throwPrefix : "") + t);
      for (const span of n.templateSpans) inHole(span.expression);
      return;
    }
    if (isStringy(n)) {
      const parent = n.parent;
      if (isEquality(parent)) return;
      if (isJoinCall(parent) && parent.arguments.includes(n as ts.Expression)) return;
      add(out.wordings, (thrown(n) ? throwPrefix : "") + n.text);
      return;
    }
    if (isJoinCall(n)) separatorOf(n);
    if (ts.isCallExpression(n)) onCall(n);
    n.forEachChild(visit);
  }
  visit(body);
}

/** The opening text of the template a try's catch clause returns (`return \`error: ${…}\``), or "" when there is none. */
function catchPrefix(tryStatement: ts.TryStatement): string {
  let prefix = "";
  const look = (n: ts.Node): void => {
    if (prefix === "" && ts.isReturnStatement(n) && n.expression !== undefined && ts.isTemplateExpression(n.expression)) prefix = n.expression.head.text;
    n.forEachChild(look);
  };
  if (tryStatement.catchClause !== undefined) look(tryStatement.catchClause.block);
  return prefix;
}

/** The wordings and separators `ToolRegistry.run` can produce, read off its syntax tree; undefined without a `run`. */
export function runWordings(code: string): Wordings | undefined {
  const body = runBody(code);
  if (body === undefined) return undefined;
  const sf = body.getSourceFile();
  const helpers = new Map<string, ts.FunctionDeclaration>();
  for (const statement of sf.statements) if (ts.isFunctionDeclaration(statement) && statement.name !== undefined && statement.body !== undefined) helpers.set(statement.name.text, statement);
  const out: Wordings = { wordings: [], separators: [] };
  const calls: ts.CallExpression[] = [];
  const isHelperCall = (n: ts.Node): n is ts.CallExpression => ts.isCallExpression(n) && ts.isIdentifier(n.expression) && helpers.has(n.expression.text);
  const passedToHelper = (n: ts.Node): boolean => (ts.isTemplateExpression(n) || isStringy(n)) && isHelperCall(n.parent) && n.parent.arguments.includes(n as ts.Expression);
  readBody(body, new Map(), out, (call) => void calls.push(call), "", passedToHelper);
  for (const call of calls) {
    const helper = ts.isIdentifier(call.expression) ? helpers.get(call.expression.text) : undefined;
    if (helper?.body === undefined) continue;
    const env = new Map<string, string[]>();
    for (const [i, param] of helper.parameters.entries()) {
      const arg = call.arguments[i];
      const passed = arg === undefined ? undefined : choices(arg, new Map());
      if (ts.isIdentifier(param.name) && passed !== undefined) env.set(param.name.text, passed);
    }
    let inTry: ts.TryStatement | undefined;
    for (let n: ts.Node = call; n !== body; n = n.parent) if (ts.isBlock(n) && ts.isTryStatement(n.parent) && n.parent.tryBlock === n) inTry = n.parent;
    readBody(helper.body, env, out, () => {}, inTry === undefined ? "" : catchPrefix(inTry));
  }
  return out;
}

const SEPARATOR = /^[\p{P}\p{S}\s]+$/u;

/** The README's table (header cell 「报错」): its first-cell code spans as wordings (`<…>` as HOLE) and separators. */
export function tableWordings(readme: string): (Wordings & { section: string; problems: string[] }) | undefined {
  for (const section of parseReadme(readme).sections) {
    if (section.name === "Pi 源码溯源") continue;
    let found: (Wordings & { section: string; problems: string[] }) | undefined;
    walk(section.nodes, (n) => {
      if (found !== undefined || n.type !== "table") return;
      const [header, ...rows] = n.children;
      const firstHeader = header?.children[0];
      const headerText = firstHeader ? firstHeader.children.map((c) => ("value" in c ? c.value : "")).join("") : "";
      if (!headerText.includes("报错")) return;
      found = { section: section.name, wordings: [], separators: [], problems: [] };
      for (const row of rows) {
        const spans = (row.children[0]?.children ?? []).filter((c) => c.type === "inlineCode");
        if (spans.length !== 1) {
          found.problems.push(`the first cell of every row holds exactly one \`…\` (line ${row.position?.start.line ?? 0})`);
          continue;
        }
        const value = spans[0].value;
        if (SEPARATOR.test(value)) found.separators.push(value);
        else found.wordings.push(value.replace(/<[^<>]*>/g, HOLE));
      }
    });
    if (found !== undefined) return found;
  }
  return undefined;
}

export function checkErrorTable(lessonId: string, readme: string, ctx: DocsContext): string[] {
  // only the lesson that introduces run (its report has the key, the previous one does not)
  if (ctx.report === undefined || !(RUN_KEY in ctx.report) || (ctx.prevReport !== undefined && RUN_KEY in ctx.prevReport)) return [];
  const say = (where: string, what: string): string => `${lessonId} README ${where}: ${what}`;
  const code = runWordings(ctx.code);
  if (code === undefined) return [say("报错一览", `the API report has ${RUN_KEY} but ${ctx.lessonDir}/code.ts has no class ToolRegistry with a run method`)];
  const table = tableWordings(readme);
  if (table === undefined) return [say("报错一览", "no table whose first header cell says 「报错」 lists the wordings ToolRegistry.run can return")];
  const out = table.problems.map((p) => say(table.section, p));
  const show = (w: string): string => `\`${w}\``;
  for (const w of code.wordings) if (!table.wordings.includes(w)) out.push(say(table.section, `ToolRegistry.run can return ${show(w)}, but the 报错 table has no row for it`));
  for (const w of table.wordings) if (!code.wordings.includes(w)) out.push(say(table.section, `the 报错 table lists ${show(w)}, but ToolRegistry.run has no such wording`));
  for (const s of code.separators) if (!table.separators.includes(s)) out.push(say(table.section, `ToolRegistry.run joins wordings with ${JSON.stringify(s)}, but the 报错 table has no row for that separator`));
  for (const s of table.separators) if (!code.separators.includes(s)) out.push(say(table.section, `the 报错 table lists the separator ${JSON.stringify(s)}, but ToolRegistry.run joins with no such separator`));
  return out;
}
