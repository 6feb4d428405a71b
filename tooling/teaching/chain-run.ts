// How s12 really runs one turn, watched from inside: for the chain check (chain-steps.ts). s12's code.ts is copied with one
// line added at the top of every named function, method and function-valued const (it records the name) and one before every
// statement that a step comment (`// ① …`, `// ②–⑦ …`) leads (it records the comment's line); the copy is imported and
// runs a turn that calls one tool and then answers, and the few other ways a turn can end (refused, could not start,
// asked maxTurns times). Nothing else of the code changes. The copy is a file under .tmp/ (not in git), removed once imported.
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { echoTool, makeAgent, scriptedProvider } from "../assemble-agent.ts";
import { ROOT } from "../course.ts";
import type { Event, LessonModule, Loader, Msg } from "../lesson.ts";
import { call, text, toolUse } from "../screenplay.ts";

/** A step comment: `// ① …`, `// ⑤⑥ …`, `// ②–⑦ …` (the circled digits that open the comment, a dash spans a range). */
export type StepComment = { line: number; steps: number[]; listed: number[]; text: string };

/** What happened, in order: a named function was entered, or a step comment was passed (by its line in code.ts). */
export type TraceEntry = { kind: "call"; name: string } | { kind: "comment"; line: number };

/** A way a turn ends other than with the model's answer, and what the caller got back. */
export type Ending = { path: string; content: string };

export type ChainRun = {
  /** One turn in which the model asks for one tool, then answers. */
  trace: TraceEntry[];
  /** Every step comment of the code, whether it leads a statement or not. */
  comments: StepComment[];
  endings: Ending[];
};

const CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳";
/** 1 for ①, …; undefined for any other character. */
export const circledValue = (ch: string): number | undefined => (CIRCLED.includes(ch) && ch !== "" ? [...CIRCLED].indexOf(ch) + 1 : undefined);

/** The steps a comment's text opens with (`① …` → [1], `⑤⑥` → [5, 6], `②–⑦` → [2 … 7]); empty when it opens with none. */
export function stepsOf(comment: string): number[] {
  return stepParts(comment).flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

/** The steps a comment names one by one (`⑤⑥` → [5, 6]); a range (`②–⑦`) sums up several and names none of them. */
export function listedStepsOf(comment: string): number[] {
  return stepParts(comment)
    .filter(({ from, to }) => from === to)
    .map(({ from }) => from);
}

function stepParts(comment: string): { from: number; to: number }[] {
  const m = new RegExp(`^\\s*([${CIRCLED}](?:\\s*[–~-]\\s*[${CIRCLED}]|[${CIRCLED}])*)`).exec(comment);
  if (!m) return [];
  return [...(m[1] ?? "").matchAll(new RegExp(`([${CIRCLED}])(?:\\s*[–~-]\\s*([${CIRCLED}]))?`, "g"))].map((part) => {
    const from = circledValue(part[1] ?? "") ?? 0;
    return { from, to: part[2] === undefined ? from : (circledValue(part[2]) ?? from) };
  });
}

/** Every `//` comment of a source file, by position: its line and its text after the slashes. */
export function lineComments(sf: ts.SourceFile): Map<number, { line: number; text: string }> {
  const code = sf.text;
  const out = new Map<number, { line: number; text: string }>();
  const visit = (node: ts.Node): void => {
    for (const r of ts.getLeadingCommentRanges(code, node.getFullStart()) ?? []) {
      if (r.kind === ts.SyntaxKind.SingleLineCommentTrivia && !out.has(r.pos)) out.set(r.pos, { line: sf.getLineAndCharacterOfPosition(r.pos).line + 1, text: code.slice(r.pos + 2, r.end) });
    }
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return out;
}

const TRACE = "__chainTrace";
const record = (entry: string): string => `${TRACE}.push(${JSON.stringify(entry)});`;

/** The code with the recording lines added, and every step comment in it. */
export function instrument(code: string): { code: string; comments: StepComment[] } {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineAt = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const inserts: { at: number; text: string }[] = [];
  const comments: StepComment[] = [];
  const done = new Set<number>();
  /** The step comments right above a statement, as one comment (its first line, all their steps in order). */
  const stepComment = (node: ts.Node): StepComment | undefined => {
    const own = (ts.getLeadingCommentRanges(code, node.getFullStart()) ?? []).filter(
      (r) => r.kind === ts.SyntaxKind.SingleLineCommentTrivia && stepsOf(code.slice(r.pos + 2, r.end)).length > 0,
    );
    if (own.length === 0) return undefined;
    own.forEach((r) => done.add(r.pos));
    const texts = own.map((r) => code.slice(r.pos + 2, r.end).trim());
    const c = { line: lineAt(own[0]?.pos ?? 0), steps: texts.flatMap(stepsOf), listed: texts.flatMap(listedStepsOf), text: texts.join(" / ") };
    comments.push(c);
    return c;
  };
  const enter = (fn: ts.FunctionLikeDeclaration, name: string, comment: StepComment | undefined): void => {
    const body = fn.body;
    if (body === undefined) return;
    const recorded = [record(`call:${name}`), ...(comment ? [record(`comment:${comment.line}`)] : [])].join(" ");
    if (ts.isBlock(body)) inserts.push({ at: body.getStart(sf) + 1, text: ` ${recorded}` });
    else {
      inserts.push({ at: body.getStart(sf), text: `(${recorded.replace(/;/g, ",")} ` });
      inserts.push({ at: body.getEnd(), text: ")" });
    }
  };
  const functionOf = (node: ts.Node): { fn: ts.FunctionLikeDeclaration; name: string } | undefined => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name !== undefined && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name))) {
      return { fn: node, name: node.name.text };
    }
    if ((ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) && ts.isIdentifier(node.name)) {
      const init = node.initializer;
      if (init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return { fn: init, name: node.name.text };
    }
    return undefined;
  };
  /** The function a statement declares (a function declaration, or a const holding one): its step comments go inside it. */
  const declared = (statement: ts.Statement): ts.Node | undefined =>
    ts.isFunctionDeclaration(statement) ? statement : ts.isVariableStatement(statement) && statement.declarationList.declarations.length === 1 ? statement.declarationList.declarations[0] : undefined;
  const bodyComments = new Map<ts.Node, StepComment>();
  const visit = (node: ts.Node): void => {
    if (ts.isSourceFile(node) || ts.isBlock(node) || ts.isCaseClause(node) || ts.isDefaultClause(node) || ts.isModuleBlock(node)) {
      for (const statement of node.statements) {
        const comment = stepComment(statement);
        if (comment === undefined) continue;
        const target = declared(statement);
        if (target !== undefined && functionOf(target) !== undefined) bodyComments.set(target, comment);
        else inserts.push({ at: statement.getStart(sf), text: `${record(`comment:${comment.line}`)} ` });
      }
    }
    const fn = functionOf(node);
    if (fn !== undefined) enter(fn.fn, fn.name, bodyComments.get(node));
    node.forEachChild(visit);
  };
  visit(sf);
  // the other step comments, which lead no statement (they are never passed, and the check says so)
  for (const [pos, c] of lineComments(sf)) {
    const steps = stepsOf(c.text);
    if (steps.length > 0 && !done.has(pos)) comments.push({ line: c.line, steps, listed: listedStepsOf(c.text), text: c.text.trim() });
  }
  comments.sort((a, b) => a.line - b.line);
  let out = code;
  for (const { at, text } of [...inserts].sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(at);
  return { code: `export const ${TRACE}: string[] = [];\n${out}`, comments };
}

/** Imports instrumented code as a module (written under .tmp/, where `zod` resolves as it does for the lessons). */
async function importInstrumented(code: string): Promise<LessonModule & { [TRACE]: string[] }> {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } }).outputText;
  const dir = join(ROOT, ".tmp", "chain-run");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `s12-${randomUUID()}.mjs`);
  writeFileSync(file, js);
  try {
    return (await import(pathToFileURL(file).href)) as LessonModule & { [TRACE]: string[] };
  } finally {
    rmSync(file, { force: true });
  }
}

/** The trace recorded since `from`, read back into entries. */
function entries(raw: readonly string[], from: number): TraceEntry[] {
  return raw.slice(from).map((e) => (e.startsWith("comment:") ? { kind: "comment", line: Number(e.slice(8)) } : { kind: "call", name: e.slice(5) }));
}

/** Runs s12's code (its text) through one turn with a tool call, and through each other way a turn ends. */
export async function observeChain(code: string): Promise<ChainRun> {
  const { code: instrumented, comments } = instrument(code);
  const mod = await importInstrumented(instrumented);
  const raw = mod[TRACE];
  const read = echoTool("read", ["path"]);
  const agentWith = (script: Parameters<typeof scriptedProvider>[1]) => makeAgent("s12", mod, { provider: scriptedProvider("s12", script).provider, tools: [read.tool] }).agent;

  // the main path: the model asks for one tool, gets its result, then answers
  const agent = agentWith((_, n) => (n === 0 ? toolUse("我读一下。", call("c1", "read", { path: "a.txt" })) : text("读完了。")));
  const from = raw.length;
  await mod.runOneTurn(agent, "读一下 a.txt");
  const trace = entries(raw, from);

  const endings: Ending[] = [];
  const ended = (path: string, m: Msg): void => void endings.push({ path, content: m.content });
  // refused: a second prompt while the first turn waits for the model
  let release = (): void => {};
  const waiting = new Promise<void>((resolve) => (release = resolve));
  const busy = makeAgent("s12", mod, {
    provider: {
      async *stream(): AsyncGenerator<Event> {
        await waiting;
        yield { type: "message_start" };
        yield { type: "message_end", stopReason: "stop" };
      },
    },
  }).agent;
  const first = mod.runOneTurn(busy, "第一句");
  ended("一轮没跑完又来一句", await mod.runOneTurn(busy, "第二句"));
  release();
  await first;
  // refused: the input is not text
  ended("输入不是文字", await mod.runOneTurn(agentWith(() => text("好。")), 42 as unknown as string));
  // could not start: the turn's input cannot be put together (the loader throws)
  const broken = agentWith(() => text("好。"));
  broken.loader = {
    load(): never {
      throw new Error("loader broke");
    },
  } satisfies Loader;
  ended("这一轮的输入备不齐", await mod.runOneTurn(broken, "你好"));
  // asked maxTurns times: the model never stops asking for the tool
  ended("问满了 maxTurns 次", await mod.runOneTurn(agentWith((_, n) => toolUse("", call(`c${n}`, "read", { path: "a.txt" }))), "一直读"));
  return { trace, comments, endings };
}
