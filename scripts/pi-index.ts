/**
 * Pi name index: 从 npm 上 Pi 1.6.0 的三个发布包里抽出"真实存在的"文件路径和名字，
 * 写入 tooling/pi-index.json（读它的是 tooling/pi-index.ts），供文档测试核对课程 README 里引用的 Pi 标识符与路径。
 *
 * Run: npm run gen:pi-index   (needs network for `npm pack`; installs nothing)
 *
 * Output keys:
 *   files     repo source path -> exported names (+ public `Class.member`), from dist/**\/*.d.ts
 *   reexports repo source path -> module specifiers of `export * from "..."`
 *   internal  repo source path -> real but non-exported names (top-level decls in dist/**\/*.js,
 *             non-exported decls in .d.ts, private/protected/JS-only class members)
 *   docs      shipped docs/examples/README/CHANGELOG as repo paths
 *   names     every name of `files` and `internal` -> the repo source paths that define it, so a README
 *             that says "`path` 里的 `Name`" can be checked against the file it names
 *   literals  every string literal type of the declarations (event and kind names such as agent_start),
 *             so a README may name them too
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

// Plain code-point order, so the output does not depend on the machine's locale.
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort(byCodePoint);
const sortedRecord = (m: Map<string, Set<string>>): Record<string, string[]> =>
  Object.fromEntries([...m.keys()].sort(byCodePoint).map((k) => [k, sorted(m.get(k) ?? [])]));

/** All files under dir, as posix paths relative to root. */
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
 * The repo source path of a dist file, taken from its source map (`X.js.map` / `X.d.ts.map`).
 * The maps say e.g. "../src/agent-loop.ts", which is the verified dist/X → src/X.ts rule.
 * Files without a map (esbuild bundles, vendored minified libs) have no source file: skipped.
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

/** Identifier / string-literal name text; undefined for computed names and `#private`. */
function nameText(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

/** Names bound by a variable declaration, including destructuring `const { a, b } = ...`. */
function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : bindingNames(el.name)));
}

interface Extracted {
  exported: Set<string>;
  internal: Set<string>;
  reexports: Set<string>;
  /** String literal types (`type: "agent_start"`), .d.ts only. */
  literals: Set<string>;
}

/** Members of a class / interface / object type, split into public and private-ish. */
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
 * Walk the top-level statements of one file. For .d.ts the `export` keyword decides
 * exported vs internal; for .js everything goes to internal (exports are already known
 * from the .d.ts and are filtered out later).
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
        if (spec) out.reexports.add(spec); // `export * from "./x"`: names live in ./x, not here
      } else if (ts.isNamespaceExport(st.exportClause)) {
        out.exported.add(st.exportClause.name.text); // `export * as ns from "./x"`
      } else {
        for (const el of st.exportClause.elements) out.exported.add(el.name.text); // `export { a, b as c }` -> a, c
      }
    } else if (ts.isExportAssignment(st)) {
      if (isDts) out.exported.add("default");
    } else if (ts.isFunctionDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isModuleDeclaration(st)) {
      const n = st.name && (ts.isIdentifier(st.name) || ts.isStringLiteral(st.name)) ? st.name.text : undefined;
      if (n) bucket.add(n);
      // `type X = { ... }` is an interface in all but name: record its members too.
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

/** name -> the files that define it (exported or internal), both sorted by code point. */
function definedIn(...maps: Map<string, Set<string>>[]): Record<string, string[]> {
  const where = new Map<string, Set<string>>();
  for (const m of maps) for (const [file, names] of m) for (const n of names) where.set(n, (where.get(n) ?? new Set()).add(file));
  return sortedRecord(where);
}

/** What the passes collect over all packages. */
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

/** Unpacks a tarball into its own folder under tmp; npm tarballs always unpack into package/. */
function unpack(tmp: string, filename: string): string {
  const dir = path.join(tmp, filename.replace(/\.tgz$/, ""));
  mkdirSync(dir);
  execFileSync("tar", ["xzf", path.join(tmp, filename), "-C", dir]);
  return path.join(dir, "package");
}

/** One unpacked package: its declarations, its compiled JS and its shipped prose, into `c`. */
function collectPackage(c: Collected, pkgDir: string): void {
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { name: string; version: string; repository?: { directory?: string } };
  // The monorepo folder (packages/ai, packages/agent, packages/coding-agent) comes from package.json.
  const directory = pkg.repository?.directory;
  if (!directory?.startsWith("packages/")) throw new Error(`${pkg.name}: no repository.directory`);
  const folder = directory.slice("packages/".length);
  c.packages.push({ name: pkg.name, version: pkg.version, directory });

  const all = walk(pkgDir).sort(byCodePoint);
  // Pass 1: declarations (.d.ts / .d.mts) = the public surface.
  for (const f of all.filter((f) => /^dist\/.*\.d\.m?ts$/.test(f))) {
    const repo = sourcePath(pkgDir, folder, f);
    if (!repo) continue;
    const ex = extract(f, readFileSync(path.join(pkgDir, f), "utf8"), true);
    for (const l of ex.literals) c.literals.add(l);
    add(c.files, repo, ex.exported);
    if (ex.internal.size) add(c.internal, repo, ex.internal);
    if (ex.reexports.size) add(c.reexports, repo, ex.reexports);
  }
  // Pass 2: compiled JS = also the non-exported helpers (runLoop, executeToolCalls, ...).
  for (const f of all.filter((f) => /^dist\/.*\.m?js$/.test(f))) {
    const repo = sourcePath(pkgDir, folder, f);
    if (repo) add(c.internal, repo, extract(f, readFileSync(path.join(pkgDir, f), "utf8"), false).internal);
  }
  // Shipped prose and examples, cited by path in lessons.
  for (const f of all) {
    if (/^(docs|examples)\//.test(f) || f === "README.md" || f === "CHANGELOG.md") c.docs.add(`${directory}/${f}`);
  }
}

/** The index as written: `internal` keeps only what is not already public in the same file; everything sorted. */
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
    // `npm pack` only downloads the tarballs; nothing is installed or run.
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
