/**
 * Pi 名字索引：从 npm 上 Pi 1.6.0 的三个发布包里抽出"真实存在的"文件路径和名字，
 * 写入 tooling/pi-index.json（读它的是 tooling/pi-index.ts），供文档测试核对课程 README 里引用的 Pi 标识符与路径。
 *
 * 用法：npm run gen:pi-index（`npm pack` 要联网；什么都不安装）
 *
 * 输出的几个键：
 *   files     仓库里的源文件路径 -> 导出的名字（加上公开的 `Class.member`），取自 dist/**\/*.d.ts
 *   reexports 仓库里的源文件路径 -> `export * from "..."` 的模块名
 *   internal  仓库里的源文件路径 -> 真有、但没导出的名字（dist/**\/*.js 的顶层声明、.d.ts 里没导出的声明、
 *             private/protected/只在 JS 里有的类成员）
 *   docs      包里带的 docs/、examples/、README、CHANGELOG，写成仓库里的路径
 *   names     files 和 internal 里的每个名字 -> 定义它的源文件路径，README 说"`path` 里的 `Name`"时可以对着那个文件查
 *   literals  声明里的每个字符串字面量类型（事件名、种类名，比如 agent_start），README 也可以点它们的名
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const VERSION = "1.6.0";
const REPOSITORY = "earendil-works/pi";
const PACKAGES = ["@earendil-works/pi-ai", "@earendil-works/pi-agent-core", "@earendil-works/pi-coding-agent"];
const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "tooling", "pi-index.json");

// 按码位排序，输出不随机器的区域设置变。
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort(byCodePoint);
const sortedRecord = (m: Map<string, Set<string>>): Record<string, string[]> =>
  Object.fromEntries([...m.keys()].sort(byCodePoint).map((k) => [k, sorted(m.get(k) ?? [])]));

/** dir 下的所有文件，写成相对 root 的 posix 路径。 */
function walk(root: string, dir = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(root, rel));
    else out.push(rel);
  }
  return out;
}

/**
 * dist 里一个文件在仓库里的源文件路径，从它的 source map（`X.js.map` / `X.d.ts.map`）里取。
 * map 里写的是 "../src/agent-loop.ts" 这种，正好是核对过的 dist/X → src/X.ts 规则。
 * 没有 map 的文件（esbuild 打的包、带进来的压缩过的库）没有源文件，跳过。
 */
function sourcePath(pkgDir: string, folder: string, distFile: string): string | undefined {
  const mapFile = path.join(pkgDir, `${distFile}.map`);
  if (!existsSync(mapFile)) return undefined;
  const map = JSON.parse(readFileSync(mapFile, "utf8")) as { sources?: string[]; sourceRoot?: string };
  const src = map.sources?.[0];
  if (map.sources?.length !== 1 || src === undefined) return undefined;
  const rel = path.posix.normalize(path.posix.join(path.posix.dirname(distFile), map.sourceRoot ?? "", src));
  if (!rel.startsWith("src/")) throw new Error(`unexpected source ${rel} for ${distFile}`);
  return `packages/${folder}/${rel}`;
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

/** 标识符或字符串字面量名字的文字；计算出来的名字和 `#private` 是 undefined。 */
function nameText(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

/** 变量声明绑定的名字，解构的 `const { a, b } = ...` 也算。 */
function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : bindingNames(el.name)));
}

interface Extracted {
  exported: Set<string>;
  internal: Set<string>;
  reexports: Set<string>;
  /** 字符串字面量类型（`type: "agent_start"`），只看 .d.ts。 */
  literals: Set<string>;
}

/** 类、接口、对象类型的成员，分成公开的和算是私有的。 */
function collectMembers(owner: string, members: ts.NodeArray<ts.ClassElement | ts.TypeElement>, out: Extracted, isPublicApi: boolean): void {
  for (const m of members) {
    if (ts.isConstructorDeclaration(m) || ts.isIndexSignatureDeclaration(m) || ts.isCallSignatureDeclaration(m)) continue;
    if (ts.isClassStaticBlockDeclaration(m) || ts.isSemicolonClassElement(m)) continue;
    const n = nameText(m.name as ts.PropertyName | undefined);
    if (n === undefined) continue;
    const hidden = hasModifier(m, ts.SyntaxKind.PrivateKeyword) || hasModifier(m, ts.SyntaxKind.ProtectedKeyword);
    (isPublicApi && !hidden ? out.exported : out.internal).add(`${owner}.${n}`);
  }
}

/**
 * 走一遍一个文件的顶层语句。.d.ts 里看 `export` 关键字分导出的和内部的；.js 里的全算内部的
 * （导出的从 .d.ts 里已经知道了，后面会滤掉）。
 */
function extract(fileName: string, text: string, isDts: boolean): Extracted {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, isDts ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const out: Extracted = { exported: new Set(), internal: new Set(), reexports: new Set(), literals: new Set() };
  if (isDts) {
    const visit = (n: ts.Node): void => {
      if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) out.literals.add(n.literal.text);
      n.forEachChild(visit);
    };
    visit(sf);
  }
  for (const st of sf.statements) {
    const exported = isDts && hasModifier(st, ts.SyntaxKind.ExportKeyword);
    const bucket = exported ? out.exported : out.internal;
    if (ts.isExportDeclaration(st)) {
      if (!isDts) continue;
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!st.exportClause) {
        if (spec) out.reexports.add(spec); // `export * from "./x"`：名字在 ./x 里，不在这里
      } else if (ts.isNamespaceExport(st.exportClause)) {
        out.exported.add(st.exportClause.name.text); // `export * as ns from "./x"` 这种
      } else {
        for (const el of st.exportClause.elements) out.exported.add(el.name.text); // `export { a, b as c }` -> a、c
      }
    } else if (ts.isExportAssignment(st)) {
      if (isDts) out.exported.add("default");
    } else if (ts.isFunctionDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isModuleDeclaration(st)) {
      const n = st.name && (ts.isIdentifier(st.name) || ts.isStringLiteral(st.name)) ? st.name.text : undefined;
      if (n) bucket.add(n);
      // `type X = { ... }` 除了名字以外就是一个接口：它的成员也记下。
      if (n && ts.isTypeAliasDeclaration(st) && ts.isTypeLiteralNode(st.type)) collectMembers(n, st.type.members, out, exported);
    } else if (ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st)) {
      if (!st.name) continue;
      bucket.add(st.name.text);
      collectMembers(st.name.text, st.members, out, exported);
    } else if (ts.isEnumDeclaration(st)) {
      bucket.add(st.name.text);
      for (const m of st.members) {
        const n = nameText(m.name as ts.PropertyName);
        if (n) bucket.add(`${st.name.text}.${n}`);
      }
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) for (const n of bindingNames(d.name)) bucket.add(n);
    }
  }
  return out;
}

/** 名字 -> 定义它的文件（导出的或内部的），两边都按码位排序。 */
function definedIn(...maps: Map<string, Set<string>>[]): Record<string, string[]> {
  const where = new Map<string, Set<string>>();
  for (const m of maps) for (const [file, names] of m) for (const n of names) where.set(n, (where.get(n) ?? new Set()).add(file));
  return sortedRecord(where);
}

/** 几遍扫描在所有包上收集到的东西。 */
type Collected = {
  packages: { name: string; version: string; directory: string }[];
  files: Map<string, Set<string>>;
  internal: Map<string, Set<string>>;
  reexports: Map<string, Set<string>>;
  docs: Set<string>;
  literals: Set<string>;
};

const add = (m: Map<string, Set<string>>, key: string, names: Iterable<string>): void => {
  const set = m.get(key) ?? new Set<string>();
  for (const n of names) set.add(n);
  m.set(key, set);
};

/** 把一个 tarball 解到 tmp 下它自己的文件夹里；npm 的 tarball 总是解出一个 package/。 */
function unpack(tmp: string, filename: string): string {
  const dir = path.join(tmp, filename.replace(/\.tgz$/, ""));
  mkdirSync(dir);
  execFileSync("tar", ["xzf", path.join(tmp, filename), "-C", dir]);
  return path.join(dir, "package");
}

/** 一个解开的包：它的声明、编译出的 JS 和带的文档，收进 `c`。 */
function collectPackage(c: Collected, pkgDir: string): void {
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { name: string; version: string; repository?: { directory?: string } };
  // 它在 monorepo 里的文件夹（packages/ai、packages/agent、packages/coding-agent）从 package.json 里读。
  const directory = pkg.repository?.directory;
  if (!directory?.startsWith("packages/")) throw new Error(`${pkg.name}: no repository.directory`);
  const folder = directory.slice("packages/".length);
  c.packages.push({ name: pkg.name, version: pkg.version, directory });

  const all = walk(pkgDir).sort(byCodePoint);
  // 第一遍：声明（.d.ts / .d.mts），就是公开的那一面。
  for (const f of all.filter((f) => /^dist\/.*\.d\.m?ts$/.test(f))) {
    const repo = sourcePath(pkgDir, folder, f);
    if (!repo) continue;
    const ex = extract(f, readFileSync(path.join(pkgDir, f), "utf8"), true);
    for (const l of ex.literals) c.literals.add(l);
    add(c.files, repo, ex.exported);
    if (ex.internal.size) add(c.internal, repo, ex.internal);
    if (ex.reexports.size) add(c.reexports, repo, ex.reexports);
  }
  // 第二遍：编译出的 JS，没导出的帮手函数也在里面（runLoop、executeToolCalls……）。
  for (const f of all.filter((f) => /^dist\/.*\.m?js$/.test(f))) {
    const repo = sourcePath(pkgDir, folder, f);
    if (repo) add(c.internal, repo, extract(f, readFileSync(path.join(pkgDir, f), "utf8"), false).internal);
  }
  // 包里带的文档和例子，课文按路径引用它们。
  for (const f of all) {
    if (/^(docs|examples)\//.test(f) || f === "README.md" || f === "CHANGELOG.md") c.docs.add(`${directory}/${f}`);
  }
}

/** 写出去的索引：`internal` 只留同一个文件里还没公开的名字；全部排好序。 */
function indexOf(c: Collected): Record<string, unknown> {
  for (const [repo, names] of c.internal) {
    for (const n of c.files.get(repo) ?? []) names.delete(n);
    if (names.size === 0) c.internal.delete(repo);
  }
  return {
    version: VERSION,
    repository: REPOSITORY,
    packages: c.packages.sort((a, b) => byCodePoint(a.name, b.name)),
    files: sortedRecord(c.files),
    reexports: sortedRecord(c.reexports),
    internal: sortedRecord(c.internal),
    docs: sorted(c.docs),
    names: definedIn(c.files, c.internal),
    literals: sorted(c.literals),
  };
}

function main(): void {
  const tmp = mkdtempSync(path.join(tmpdir(), "pi-index-"));
  try {
    // `npm pack` 只下载 tarball，什么都不装、不跑。
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", ...PACKAGES.map((p) => `${p}@${VERSION}`)], { cwd: tmp, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    ) as { filename: string }[];
    const c: Collected = { packages: [], files: new Map(), internal: new Map(), reexports: new Map(), docs: new Set(), literals: new Set() };
    for (const { filename } of packed) collectPackage(c, unpack(tmp, filename));
    const index = indexOf(c);
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify(index, null, 2)}\n`);
    const count = (m: Map<string, Set<string>>): number => [...m.values()].reduce((n, s) => n + s.size, 0);
    console.log(
      `wrote ${path.relative(process.cwd(), OUT)}: ${c.files.size} files, ${c.docs.size} docs, ${Object.keys(index.names as object).length} names, ` +
        `${c.internal.size} files with internal names (${count(c.internal)} names)`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main();
