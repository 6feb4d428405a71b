// 从里面看 s12 真跑一轮是什么先后，给链路检查（chain-steps.ts）用。把 s12 的 code.ts 抄一份：每个有名字的函数、方法和值是函数的
// const 开头加一行（记下名字），每条带步骤注释（`// ① …`、`// ②–⑦ …`）的语句前面加一行（记下注释在第几行）；导入这份拷贝，
// 跑一轮调一次工具再回答的对话，再跑一轮没走完的几种收场（被拒绝、开不了头、问满了 maxTurns 次）。代码别的地方一点不改。
// 拷贝是 .tmp/ 下的一个文件（不进版本库），导入之后就删掉。
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { echoTool, gateFirstRequest, makeAgent, scriptedProvider } from "../assemble-agent.ts";
import { ROOT } from "../course.ts";
import type { LessonModule, Loader, Msg } from "../lesson.ts";
import { call, end, start, text, toolUse } from "../screenplay.ts";

/** 步骤注释：`// ① …`、`// ⑤⑥ …`、`// ②–⑦ …`（注释开头的圈码，中间一道横线表示一段）。 */
export type StepComment = { line: number; steps: number[]; listed: number[]; text: string };

/** 按先后发生了什么：进了一个有名字的函数，或者经过了一条步骤注释（按它在 code.ts 里的行号）。 */
export type TraceEntry = { kind: "call"; name: string } | { kind: "comment"; line: number };

/** 一轮不以模型回答收场的一种走法，和调用方拿回的东西。 */
export type Ending = { path: string; content: string };

export type ChainRun = {
  /** 模型要一次工具、然后回答的一轮。 */
  trace: TraceEntry[];
  /** 代码里的每条步骤注释，不管它下面是不是一条语句。 */
  comments: StepComment[];
  endings: Ending[];
};

const CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳";
/** ① 是 1，依此类推；别的字符是 undefined。 */
export const circledValue = (ch: string): number | undefined => (CIRCLED.includes(ch) && ch !== "" ? [...CIRCLED].indexOf(ch) + 1 : undefined);

/** 注释开头写的是哪几步（`① …` → [1]，`⑤⑥` → [5, 6]，`②–⑦` → [2 … 7]）；开头没有圈码就是空的。 */
export function stepsOf(comment: string): number[] {
  return stepParts(comment).flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

/** 注释一个一个点名的步骤（`⑤⑥` → [5, 6]）；一段（`②–⑦`）是几步的总括，不算点名其中哪一步。 */
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

/** 源文件里的每条 `//` 注释，按位置：它的行号和斜线后面的文字。 */
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

/** 加上记录行的代码，和其中的每条步骤注释。 */
export function instrument(code: string): { code: string; comments: StepComment[] } {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineAt = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const inserts: { at: number; text: string }[] = [];
  const comments: StepComment[] = [];
  const done = new Set<number>();
  /** 紧挨在一条语句上面的几条步骤注释，合成一条（取第一行的行号，步骤按先后连起来）。 */
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
  /** 一条语句声明的函数（函数声明，或值是函数的 const）：它的步骤注释记在函数里面。 */
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
  // 剩下的步骤注释下面没有语句（永远经过不了，检查会说出来）
  for (const [pos, c] of lineComments(sf)) {
    const steps = stepsOf(c.text);
    if (steps.length > 0 && !done.has(pos)) comments.push({ line: c.line, steps, listed: listedStepsOf(c.text), text: c.text.trim() });
  }
  comments.sort((a, b) => a.line - b.line);
  let out = code;
  for (const { at, text } of [...inserts].sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(at);
  return { code: `export const ${TRACE}: string[] = [];\n${out}`, comments };
}

/** 把加了记录行的代码当模块导入（写在 .tmp/ 下，那里的 `zod` 和课里找到的是同一个）。 */
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

/** 从 `from` 起记下的轨迹，读回成一条条记录。 */
function entries(raw: readonly string[], from: number): TraceEntry[] {
  return raw.slice(from).map((e) => (e.startsWith("comment:") ? { kind: "comment", line: Number(e.slice(8)) } : { kind: "call", name: e.slice(5) }));
}

/** 用 s12 的代码（全文）跑一轮调一次工具的对话，再把一轮别的几种收场各跑一遍。 */
export async function observeChain(code: string): Promise<ChainRun> {
  const { code: instrumented, comments } = instrument(code);
  const mod = await importInstrumented(instrumented);
  const raw = mod[TRACE];
  const read = echoTool("read", ["path"]);
  const agentWith = (script: Parameters<typeof scriptedProvider>[1]) => makeAgent("s12", mod, { provider: scriptedProvider("s12", script).provider, tools: [read.tool] }).agent;

  // 主路：模型要一次工具，拿到结果，再回答
  const agent = agentWith((_, n) => (n === 0 ? toolUse("我读一下。", call("c1", "read", { path: "a.txt" })) : text("读完了。")));
  const from = raw.length;
  await mod.runOneTurn(agent, "读一下 a.txt");
  const trace = entries(raw, from);

  const endings: Ending[] = [];
  const ended = (path: string, m: Msg): void => void endings.push({ path, content: m.content });
  // 被拒绝：第一轮还在等模型，又来了第二句
  const { provider: waiting, release } = gateFirstRequest(scriptedProvider("s12", () => [start, end("stop")]).provider);
  const busy = makeAgent("s12", mod, { provider: waiting }).agent;
  const first = mod.runOneTurn(busy, "第一句");
  ended("一轮没跑完又来一句", await mod.runOneTurn(busy, "第二句"));
  release();
  await first;
  // 被拒绝：输入不是文字
  ended("输入不是文字", await mod.runOneTurn(agentWith(() => text("好。")), 42 as unknown as string));
  // 开不了头：这一轮的输入拼不起来（loader 抛错）
  const broken = agentWith(() => text("好。"));
  broken.loader = {
    load(): never {
      throw new Error("loader broke");
    },
  } satisfies Loader;
  ended("这一轮的输入备不齐", await mod.runOneTurn(broken, "你好"));
  // 问满了 maxTurns 次：模型一直要工具，不停
  ended("问满了 maxTurns 次", await mod.runOneTurn(agentWith((_, n) => toolUse("", call(`c${n}`, "read", { path: "a.txt" }))), "一直读"));
  return { trace, comments, endings };
}
