/**
 * 文档检查：接入主线和 API 差异对得上（§6.4）。
 *
 *   API 差异（tests/api/sNN.json 减去前一课的报告）给导出声明加的每个名字，都得有改动表的一行点到：新声明写在那一行的
 *   第一格（演示用的辅助函数也算；几个名字可以共用一行）；新成员（`Agent.registry`）或联合类型的新成员
 *   （`"toolUse"`、`ToolResultMessage`、新变体的 `tool_call`）写在第一格，或者写在第一格点名它主人的那一行的任何地方
 *   （`| \`ToolRegistry\` | … | 加 \`run\` |`）。别处提到的（焊接点那句话、```diff 代码块）不算。不要求的：标签键、构造函数、
 *   判别字段、新变体的字段、前一课的报告已经有的组合。s01 另算：s01 的每个声明都写在某一行的第一格（这是永久的地基）。
 *   U1（tooling/constitution/data.ts 的 U1_UPGRADES，没有就看删掉或改了的键）：升级了的类型或成员用反引号写在
 *   「这是升级」所在的那一行表格或那一段里。
 *   声称新增：文字以 `+` 或 `新增` 开头的表格和行（或 `+` 开头的列表项）里，每个反引号里不带空格的名字（`X`、`A.b`、`"lit"`）
 *   都算声称是这一课新加的，它们都得在 API 差异里。改动表里第二格是 `—` 的一行（上一节那里什么都没有；`-`、`–`、`无` 也算），
 *   第一格里不带标签的反引号名字都算声称新增，而且要求更严：得是前一课的报告没有的声明、没有的成员或联合成员；
 *   只是多了一个成员的主人（s03 的 `Provider`）不算新的。s01 不查这一条。
 */
import type { Nodes, TableCell } from "mdast";
import { toString } from "mdast-util-to-string";
import { keyInfo } from "../api/keys.ts";
import { type Section, containers, findSection, inlineLines, lineText, tableRows, walk } from "../markdown.ts";
import type { DocsContext } from "./context.ts";
import { type Span, classifySpan, identifiersIn, spansOfLine } from "./spans.ts";

interface Requirement {
  key: string;
  token: string;
}

/**
 * API 差异说这一课加了什么：要求点到的（键，名字）、可以声称新增的名字（给 `+`/`新增` 用：新的名字、`Owner.member`，
 * 以及多了任何东西的主人），和给 `—` 行用的两个更严的集合：`fresh`（前一课的报告没有的名字和 `Owner.member`）、
 * `newDecls`（前一课的报告根本没有的声明）。
 */
export function addedNames(ctx: DocsContext): { required: Requirement[]; claimable: Set<string>; fresh: Set<string>; newDecls: Set<string> } {
  const report = ctx.report ?? {};
  const exported = (owner: string): boolean => (report[owner] ?? "").startsWith("export");
  const required: Requirement[] = [];
  const claimable = new Set<string>();
  const fresh = new Set<string>();
  const newDecls = new Set<string>();
  if (ctx.prevLesson === undefined || !ctx.prevReport) {
    for (const key of Object.keys(report)) {
      const info = keyInfo(key);
      if (!info) continue;
      for (const t of info.tokens) claimable.add(t);
      if (info.member) claimable.add(`${info.owner}.${info.member}`);
      if (info.kind === "decl") newDecls.add(info.owner);
      if (info.kind === "decl" && exported(info.owner)) required.push({ key, token: info.owner });
    }
    for (const c of claimable) fresh.add(c);
    return { required, claimable, fresh, newDecls };
  }
  const prev = ctx.prevReport;
  const seen = new Set<string>(); // 前一课已经有的 "owner\0token" 组合
  for (const [key, value] of Object.entries(prev)) {
    const info = keyInfo(key);
    if (!info) continue;
    for (const t of [info.owner, ...info.tokens, ...[...value.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "")]) seen.add(`${info.owner}\0${t}`);
  }
  const added = Object.keys(report).filter((k) => !(k in prev));
  const addedSet = new Set(added);
  const discriminants = new Map<string, Set<string>>();
  for (const key of Object.keys(report)) {
    const info = keyInfo(key);
    if (info?.discriminant) discriminants.set(info.owner, (discriminants.get(info.owner) ?? new Set()).add(info.discriminant));
  }
  for (const key of added) {
    const info = keyInfo(key);
    if (!info) continue;
    for (const t of info.tokens) claimable.add(t);
    claimable.add(info.owner);
    if (info.member) claimable.add(`${info.owner}.${info.member}`);
    if (info.kind === "decl") newDecls.add(info.owner);
    for (const t of info.tokens) if (!seen.has(`${info.owner}\0${t}`)) fresh.add(t);
    if (info.member && !seen.has(`${info.owner}\0${info.member}`)) fresh.add(`${info.owner}.${info.member}`);
    if (!exported(info.owner)) continue;
    if (info.kind === "variantField" && addedSet.has(`${info.owner}|${info.label}`)) continue;
    if ((info.kind === "member" || info.kind === "variantField") && discriminants.get(info.owner)?.has(info.member ?? "")) continue;
    for (const t of info.tokens) if (!seen.has(`${info.owner}\0${t}`)) required.push({ key, token: t });
  }
  return { required, claimable, fresh, newDecls };
}

const cellSpans = (cell: TableCell | undefined): Span[] => (cell ? inlineLines(cell).flatMap(spansOfLine) : []);
const unlabelled = (spans: readonly Span[]): Span[] => spans.filter((s) => s.label === undefined);
/** 声称后面是新东西的开头：`+` 或 `新增`。 */
const CLAIM = /^\s*(?:\+|新增)/;
/** 说「这里原来什么都没有」的格子：`—`（`——`、`–`、`-`、`无` 也算）。 */
const EMPTY_CELL = /^\s*(?:—+|–|-|无)\s*$/;

/** 声称新增的反引号片段：文字以 `+` 或 `新增` 开头的格子和行里的，或者 `+` 开头的列表项第一行里的。 */
export function claimSpans(section: Section, readme: string): Span[] {
  const out: Span[] = [];
  const plusItems = new Set<Nodes>();
  walk(section.nodes, (n) => {
    const first = n.type === "listItem" ? n.children[0] : undefined;
    if (first && readme[n.position?.start.offset ?? -1] === "+") plusItems.add(first);
  });
  for (const c of containers(section.nodes)) {
    if (c.type === "tableCell") {
      if (CLAIM.test(toString(c))) out.push(...unlabelled(cellSpans(c)));
      continue;
    }
    inlineLines(c).forEach((l, i) => {
      if ((i === 0 && plusItems.has(c)) || CLAIM.test(lineText(l))) out.push(...unlabelled(spansOfLine(l)));
    });
  }
  return out;
}

/**
 * 改动表的一行声称新增的片段：第二格是空的（`—`，前一课那里什么都没有），第一格里不带标签的反引号名字就都算这一课新加的。
 */
export function newRowSpans(section: Section): Span[] {
  return tableRows(section.nodes)
    .filter((row) => row.children[1] !== undefined && EMPTY_CELL.test(toString(row.children[1])))
    .flatMap((row) => unlabelled(cellSpans(row.children[0])));
}

/** 一组片段里的标识符。 */
const idsOf = (spans: readonly Span[]): Set<string> => new Set(spans.flatMap((s) => identifiersIn(s.text)));

/** 一处改动一行：每个要求点到的名字都在改动表某一行的第一格，或者（成员）在它主人的那一行里。 */
function missingRows(section: Section, lessonId: string, ctx: DocsContext, required: readonly Requirement[]): string[] {
  const rows = tableRows(section.nodes).map((row) => ({ first: idsOf(cellSpans(row.children[0])), all: idsOf(row.children.flatMap(cellSpans)) }));
  const missing = new Map<string, { keys: string[]; owners: Set<string> }>();
  for (const { key, token } of required) {
    const info = keyInfo(key);
    const owner = info && info.kind !== "decl" ? info.owner : undefined;
    if (rows.some((r) => r.first.has(token) || (owner !== undefined && r.first.has(owner) && r.all.has(token)))) continue;
    const m = missing.get(token) ?? { keys: [], owners: new Set<string>() };
    m.keys.push(key);
    if (owner !== undefined) m.owners.add(owner);
    missing.set(token, m);
  }
  return [...missing].map(([token, { keys, owners }]) => {
    const detail = keys.filter((k) => k !== token);
    const where = owners.size > 0 ? `its first cell, or the row of ${[...owners].map((o) => `\`${o}\``).join("/")}` : "its first cell";
    const what = ctx.prevReport ? `new in ${lessonId}` : `an ${lessonId} declaration (the foundation)`;
    return `\`${token}\` is ${what}${detail.length > 0 ? ` (${detail.join(", ")})` : ""} but no change-table row names it in ${where}`;
  });
}

/** U1：每处升级都点名在「这是升级」所在的那一行表格或那一段里。 */
function unnamedUpgrades(section: Section, ctx: DocsContext): string[] {
  if (ctx.upgrades.length === 0) return [];
  const units: Span[][] = [
    ...tableRows(section.nodes).filter((r) => toString(r).includes("这是升级")).map((r) => r.children.flatMap(cellSpans)),
    ...containers(section.nodes).filter((c) => c.type !== "tableCell" && toString(c).includes("这是升级")).map((c) => inlineLines(c).flatMap(spansOfLine)),
  ];
  const upgradeNames = idsOf(units.flat());
  return ctx.upgrades.flatMap((key) => {
    const info = keyInfo(key);
    if (!info || upgradeNames.has(info.owner) || (info.member && upgradeNames.has(info.member))) return [];
    return [`U1 upgrade \`${key}\` must be named in backticks on a line that says 「这是升级」 (R3)`];
  });
}

/** 声称新增、其实不新的名字：每个片段里的字面量和名字，用两个判断函数来判。 */
function falseClaims(spans: readonly Span[], diffName: string, literalIsNew: (literal: string) => boolean, pathIsNew: (path: string[]) => boolean): string[] {
  const out: string[] = [];
  for (const span of spans) {
    const kind = classifySpan(span.text);
    const claimed: { shown: string; ok: boolean }[] = [];
    if (kind.kind === "literal") claimed.push({ shown: `"${kind.value}"`, ok: literalIsNew(kind.value) });
    if (kind.kind === "names") {
      for (const lit of kind.literals) claimed.push({ shown: `"${lit}"`, ok: literalIsNew(lit) });
      for (const p of kind.paths) claimed.push({ shown: p.join("."), ok: pathIsNew(p) });
    }
    for (const c of claimed) if (!c.ok) out.push(`claims \`${c.shown}\` is new, but ${diffName} does not add it`);
  }
  return out;
}

export function checkMainline(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const section = findSection(readme, "接入主线");
  if (!section) return [];
  const say = (what: string): string => `${lessonId} README 接入主线: ${what}`;
  if (!ctx.report) return [say(`no API report tests/api/${lessonId}.json (run npm run gen:api)`)];
  if (ctx.prevLesson !== undefined && !ctx.prevReport) return [say(`no API report tests/api/${ctx.prevLesson}.json to diff against (run npm run gen:api)`)];
  const { required, claimable, fresh, newDecls } = addedNames(ctx);
  const diffName = ctx.prevLesson ? `the API diff ${ctx.prevLesson} → ${lessonId}` : `${lessonId}'s API report`;
  const found = [...missingRows(section, lessonId, ctx, required), ...unnamedUpgrades(section, ctx)];
  // 声称新增：这一节说是新的名字，差异里都得有。`+`/新增 的行也可以点名一个只是多了成员的声明；
  // `—` 行说前一课那里什么都没有，所以它的名字本身就得是新的。
  found.push(
    ...falseClaims(
      claimSpans(section, readme),
      diffName,
      (lit) => claimable.has(lit),
      (p) => (p.length === 1 ? claimable.has(p[0] ?? "") : claimable.has(`${p[0]}.${p[1]}`) || claimable.has(p[0] ?? "")),
    ),
  );
  // `—` 行：第一格的名字是这一课新加的（s01 没有前一课可比）。
  if (ctx.prevLesson !== undefined) {
    found.push(
      ...falseClaims(
        newRowSpans(section),
        diffName,
        (lit) => fresh.has(lit),
        (p) => (p.length === 1 ? fresh.has(p[0] ?? "") : fresh.has(`${p[0]}.${p[1]}`) || newDecls.has(p[0] ?? "")),
      ),
    );
  }
  return [...new Set(found.map(say))];
}
