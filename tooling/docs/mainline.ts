/**
 * Docs check: 接入主线 agrees with the API diff (§6.4).
 *
 *   Every name the API diff (tests/api/sNN.json minus the previous lesson's report) adds for an exported
 *   declaration must be named by a row of a change table: a new declaration in the row's FIRST cell
 *   (demo helpers too; several names may share a row); a new member (`Agent.registry`) or union member
 *   (`"toolUse"`, `ToolResultMessage`, the `tool_call` of a new variant) in the first cell, or anywhere in
 *   the row whose first cell names its owner (`| \`ToolRegistry\` | … | 加 \`run\` |`). Mentions elsewhere
 *   (the 焊接点 sentence, a ```diff block) do not count. Not required: tag keys, constructors,
 *   discriminant fields, fields of a new variant, pairs the previous report already had. s01 instead
 *   names every s01 declaration in a first cell (its permanent foundation).
 *   U1 (tooling/constitution/data.ts U1_UPGRADES, else removed/changed keys): the upgraded type or member in
 *   backticks in the same table row or paragraph as 这是升级.
 *   Claims: a table cell or line whose text starts with `+` or `新增` (or a `+` list item) claims each
 *   space-free backticked name in it (`X`, `A.b`, `"lit"`) as new in this lesson; each must be in the
 *   API diff. A change-table row whose SECOND cell is `—` (上一节 had nothing; also `-`, `–`, `无`) claims
 *   the unlabelled backticked names of its FIRST cell as new, more strictly: a declaration the previous
 *   report did not have, a member pair or union member it did not have; an owner that merely gained a
 *   member (`Provider` in s03) is not new. Not in s01.
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
 * What the API diff says this lesson added: (key, token) requirements, the set of claimable names (for
 * `+`/`新增` claims: new tokens, `Owner.member`, and owners that gained anything), and the stricter sets for
 * `—` rows: `fresh` (new tokens and `Owner.member` pairs the previous report did not have) and `newDecls`
 * (declarations the previous report did not have at all).
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
  const seen = new Set<string>(); // "owner\0token" pairs the previous lesson already had
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
/** Text that claims what follows as new: `+` or `新增`. */
const CLAIM = /^\s*(?:\+|新增)/;
/** A cell that says "nothing here": `—` (also `——`, `–`, `-`, `无`). */
const EMPTY_CELL = /^\s*(?:—+|–|-|无)\s*$/;

/** Claimed-new spans: in a table cell or line whose text starts with `+` or `新增`, or a `+` list item's first line. */
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
 * Spans claimed new by a change-table row: a table row whose SECOND cell is empty (`—`, i.e. the previous
 * lesson had nothing there) claims the unlabelled backticked names of its FIRST cell as new in this lesson.
 */
export function newRowSpans(section: Section): Span[] {
  return tableRows(section.nodes)
    .filter((row) => row.children[1] !== undefined && EMPTY_CELL.test(toString(row.children[1])))
    .flatMap((row) => unlabelled(cellSpans(row.children[0])));
}

/** The identifiers in a list of spans. */
const idsOf = (spans: readonly Span[]): Set<string> => new Set(spans.flatMap((s) => identifiersIn(s.text)));

/** One row per change: every required name is in a change-table row's first cell, or (a member) in its owner's row. */
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

/** U1: each upgrade is named in the same table row or paragraph as 这是升级. */
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

/** Claimed-new names that are not new: each span's literals and names, judged by the two predicates. */
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
  // claims: a name the section says is new must be in the diff. `+`/新增 lines may also name a declaration that only
  // gained a member; a `—` row says the previous lesson had nothing there, so its names must be new themselves.
  found.push(
    ...falseClaims(
      claimSpans(section, readme),
      diffName,
      (lit) => claimable.has(lit),
      (p) => (p.length === 1 ? claimable.has(p[0] ?? "") : claimable.has(`${p[0]}.${p[1]}`) || claimable.has(p[0] ?? "")),
    ),
  );
  // `—` rows: the first cell's names are new in this lesson (s01 has no previous lesson to compare with).
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
