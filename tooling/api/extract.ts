// 抽 API 报告：一个 TypeScript 程序读所有课的文件，每课得出一份拍平、排好序的 Record<键, 文字>
// （键的写法见 tests/api/README.md）。处理过的几个坑：NoTruncation（长类型永远不会被截成 "..."）、外层节点是
// undefined 的声明、顶层联合类型排序（TypeScript 按类型创建的先后排）、可选成员用声明里写的类型节点
// （`x?: string` 打出 `string`，不是 `string | undefined`）、字面量常量放宽成它的类型。
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { type ApiReport, ROOT, findLessons } from "../course.ts";

export type { ApiReport };
export type ApiBuild = { reports: Record<string, ApiReport>; diagnostics: Record<string, string[]> };

const FORMAT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope |
  ts.TypeFormatFlags.WriteArrowStyleSignature;

// ── 磁盘上的课 ───────────────────────────────────────
/** 仓库根下每一课的 code.ts，按课的顺序。 */
const lessonFiles = (): string[] => findLessons().map((l) => l.codePath);

/** `s03_stream/code.ts` → `s03`；样例的文件名就是 `s03.ts`。 */
export function lessonIdOf(file: string): string {
  const m = /(?:^|[\\/])(s\d{2})(?:_[^\\/]*[\\/]code)?\.ts$/.exec(file);
  if (!m?.[1]) throw new Error(`not a lesson file: ${file}`);
  return m[1];
}

// ── 程序（每个进程建一次） ──────────────────────────
let options: ts.CompilerOptions | undefined;
/** 编译选项，和 tsconfig.json 写的一模一样（lib、types、strict、moduleDetection ……）。 */
function compilerOptions(): ts.CompilerOptions {
  if (options) return options;
  const configPath = join(ROOT, "tsconfig.json");
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  options = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath).options;
  return options;
}

// lib 和 @types 的文件只解析一次，每个程序共用（样例要建好几个程序）。
const sharedFiles = new Map<string, ts.SourceFile>();
let host: ts.CompilerHost | undefined;
function compilerHost(): ts.CompilerHost {
  if (host) return host;
  const base = ts.createCompilerHost(compilerOptions());
  host = {
    ...base,
    getSourceFile(fileName, languageVersion, onError) {
      if (!fileName.includes("node_modules")) return base.getSourceFile(fileName, languageVersion, onError);
      let sf = sharedFiles.get(fileName);
      if (!sf) {
        sf = base.getSourceFile(fileName, languageVersion, onError);
        if (sf) sharedFiles.set(fileName, sf);
      }
      return sf;
    },
  };
  return host;
}

type Built = ApiBuild & { sources: Record<string, ts.SourceFile> };
const cache = new Map<string, Built>();

function build(files: string[]): Built {
  const abs = files.map((f) => resolve(f));
  const key = abs.join("\n");
  const hit = cache.get(key);
  if (hit) return hit;

  const ids = abs.map(lessonIdOf);
  if (new Set(ids).size !== ids.length) throw new Error(`duplicate lesson ids: ${ids.join(", ")}`);
  const program = ts.createProgram(abs, compilerOptions(), compilerHost());
  const checker = program.getTypeChecker();

  const reports: Record<string, ApiReport> = {};
  const diagnostics: Record<string, string[]> = {};
  const sources: Record<string, ts.SourceFile> = {};
  // 总是先出报告、再出诊断：类型创建的先后（也就是嵌套联合类型的文字）就不会变。
  abs.forEach((file, i) => {
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`not in program: ${file}`);
    sources[ids[i]!] = sf;
    reports[ids[i]!] = extractReport(checker, sf);
  });
  abs.forEach((file, i) => {
    diagnostics[ids[i]!] = ts.getPreEmitDiagnostics(program, sources[ids[i]!]).map(formatDiagnostic);
  });

  const built = { reports, diagnostics, sources };
  cache.set(key, built);
  return built;
}

function formatDiagnostic(d: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, " ");
  if (!d.file || d.start === undefined) return `TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${relative(ROOT, d.file.fileName)}:${line + 1}:${character + 1} TS${d.code}: ${text}`;
}

/** 每课的报告和 TS 诊断，按课号。默认是磁盘上的每一课。 */
export function buildApiReports(files: string[] = lessonFiles()): ApiBuild {
  const { reports, diagnostics } = build(files);
  return { reports, diagnostics };
}

/**
 * 练习模式（tooling/practice/）：课的文件夹之外一个文件的报告和 TS 诊断，每次调用都现建（学习者在改它）。
 * 给了 `text` 就用它代替文件的内容。
 */
export function buildFileReport(file: string, text?: string): { report: ApiReport; diagnostics: string[] } {
  const abs = resolve(file);
  const base = compilerHost();
  const host: ts.CompilerHost =
    text === undefined
      ? base
      : {
          ...base,
          fileExists: (f) => resolve(f) === abs || base.fileExists(f),
          readFile: (f) => (resolve(f) === abs ? text : base.readFile(f)),
          getSourceFile: (f, v, onError) => (resolve(f) === abs ? ts.createSourceFile(f, text, v, true) : base.getSourceFile(f, v, onError)),
        };
  const program = ts.createProgram([abs], compilerOptions(), host);
  const sf = program.getSourceFile(abs);
  if (!sf) throw new Error(`not in program: ${file}`);
  const report = extractReport(program.getTypeChecker(), sf);
  return { report, diagnostics: ts.getPreEmitDiagnostics(program, sf).map(formatDiagnostic) };
}

/** 同一个（缓存着的）程序解析好的源文件，给查语法树的规则用（R7、U2）。 */
export function lessonSources(files: string[] = lessonFiles()): Record<string, ts.SourceFile> {
  return build(files).sources;
}

// ── 一课 → 报告 ──────────────────────────────────
export function extractReport(checker: ts.TypeChecker, sf: ts.SourceFile): ApiReport {
  const out: ApiReport = {};
  const moduleSymbol = checker.getSymbolAtLocation(sf);
  const exported = new Set(
    (moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []).map((s) =>
      s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s,
    ),
  );
  // 重载、合并或重复的声明：一个名字一条，第一个声明算数（和 TS 一样）
  const seen = new Set<string>();
  const entries = new Entries(checker, out);
  for (const node of declarationsOf(sf)) {
    const sym = checker.getSymbolAtLocation(node.name);
    const name = node.name.text;
    if (!sym || seen.has(name)) continue;
    seen.add(name);
    const prefix = exported.has(sym) ? "export " : "";
    entries.declaration(node, name, prefix, sym);
    addTags(out, name, sym);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

type NamedDeclaration = (
  | ts.TypeAliasDeclaration
  | ts.InterfaceDeclaration
  | ts.ClassDeclaration
  | ts.FunctionDeclaration
  | ts.VariableDeclaration
  | ts.EnumDeclaration
) & { name: ts.Identifier };

/** 顶层声明，导出没导出都算（R8 的「超集」管所有的）。 */
export function declarationsOf(sf: ts.SourceFile): NamedDeclaration[] {
  const out: NamedDeclaration[] = [];
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) out.push(d as NamedDeclaration);
    } else if (
      (ts.isTypeAliasDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isFunctionDeclaration(st) ||
        ts.isEnumDeclaration(st)) &&
      st.name
    ) {
      out.push(st as NamedDeclaration);
    }
  }
  return out;
}

/** `Name@since` → `s01`，`Name@upgraded` → `s03 (U1)`（几个标签用 ", " 连起来）。 */
function addTags(out: ApiReport, name: string, sym: ts.Symbol): void {
  for (const tagName of ["since", "upgraded"]) {
    const values = (sym.declarations ?? [])
      .flatMap((d) => ts.getJSDocTags(d))
      .filter((t) => t.tagName.text === tagName)
      .map((t) => (ts.getTextOfJSDocComment(t.comment) ?? "").trim());
    if (values.length > 0) out[`${name}@${tagName}`] = [...new Set(values)].join(", ");
  }
}

const isPrivate = (d: ts.Declaration): boolean =>
  (ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
  (ts.isClassElement(d) && d.name !== undefined && ts.isPrivateIdentifier(d.name));

/** 把一个声明的键写进 `out`。 */
class Entries {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly out: ApiReport,
  ) {}

  declaration(node: NamedDeclaration, name: string, prefix: string, sym: ts.Symbol): void {
    const c = this.checker;
    const typeParams =
      "typeParameters" in node && node.typeParameters
        ? `<${node.typeParameters.map((p) => p.getText()).join(", ")}>`
        : "";
    if (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) {
      const kind = ts.isTypeAliasDeclaration(node) ? "type" : "interface";
      this.out[name] = `${prefix}${kind}${typeParams}`;
      this.typeBody(name, c.getDeclaredTypeOfSymbol(sym));
    } else if (ts.isClassDeclaration(node)) {
      this.out[name] = `${prefix}class${typeParams}`;
      this.classBody(name, sym);
    } else if (ts.isFunctionDeclaration(node)) {
      const sigs = c.getSignaturesOfType(c.getTypeOfSymbol(sym), ts.SignatureKind.Call);
      this.out[name] = `${prefix}function ${sigs.map((s) => this.sig(s)).join(" & ")}`;
    } else if (ts.isVariableDeclaration(node)) {
      const keyword = node.parent.flags & ts.NodeFlags.Const ? "const" : "let";
      // `const M = "a"` 放宽成 string：改个值不算改 API
      this.out[name] = `${prefix}${keyword}: ${this.text(c.getBaseTypeOfLiteralType(c.getTypeOfSymbol(sym)))}`;
    } else {
      this.out[name] = `${prefix}enum`;
      for (const m of node.members) this.out[`${name}.${m.name.getText()}`] = `= ${String(c.getConstantValue(m))}`;
    }
  }

  /** 类型别名或接口的内容：联合的成员、对象的成员，或别名指向的类型文字。 */
  private typeBody(name: string, t: ts.Type): void {
    if (t.isUnion() && !(t.flags & ts.TypeFlags.Boolean) && !(t.flags & ts.TypeFlags.EnumLiteral)) {
      this.unionBody(name, t.types);
    } else if (t.flags & ts.TypeFlags.Object && !this.isNamedOther(t, name)) {
      this.objectMembers(name, ".", t);
    } else {
      this.out[`${name}=`] = this.checker.typeToString(t, undefined, FORMAT | ts.TypeFormatFlags.InTypeAlias);
    }
  }

  /** `type A = B`，B 是另一个有名字的类型：记下别名指向谁，不记 B 的成员。 */
  private isNamedOther(t: ts.Type, name: string): boolean {
    const named = t.aliasSymbol ?? (t.flags & ts.TypeFlags.Object ? t.symbol : undefined);
    return named !== undefined && named.name !== name && named.name !== "__type" && named.name !== "__object";
  }

  private unionBody(name: string, members: readonly ts.Type[]): void {
    const c = this.checker;
    const isAnonObject = (m: ts.Type) => m.flags & ts.TypeFlags.Object && !m.aliasSymbol && m.symbol?.name === "__type";
    const objects = members.filter(isAnonObject);
    const disc = this.discriminant(objects);
    for (const m of members) {
      if (isAnonObject(m) && disc) {
        const label = `[${disc}=${this.text(this.propType(m.getProperty(disc)!))}]`;
        this.out[`${name}|${label}`] = "object";
        this.objectMembers(`${name}${label}`, ".", m);
      } else {
        const text = c.typeToString(m, undefined, FORMAT);
        this.out[`${name}|${text}`] = isAnonObject(m) ? "object" : text;
      }
    }
    // 成员全是对象的联合：大家都有的成员留着，比如 ProviderMessage 变成联合以后 ProviderMessage.role 还在
    if (members.every((m) => m.flags & ts.TypeFlags.Object)) {
      const [first, ...rest] = members;
      for (const p of first ? c.getPropertiesOfType(first) : []) {
        const props = [p, ...rest.map((m) => m.getProperty(p.name))];
        if (props.some((q) => q === undefined)) continue;
        const all = props as ts.Symbol[];
        const optional = all.some((q) => q.flags & ts.SymbolFlags.Optional) ? "?" : "";
        const readonly = all.every((q) => this.isReadonly(q)) ? "readonly " : "";
        this.out[`${name}.${p.name}`] = `${readonly}${optional}: ${this.unionText(all.map((q) => this.propType(q)))}`;
      }
    }
  }

  /** 每个匿名对象成员都有、类型是字面量或字面量联合的那个属性。 */
  private discriminant(objects: ts.Type[]): string | undefined {
    const isUnit = (t: ts.Type) =>
      (t.flags & ts.TypeFlags.Unit) !== 0 || (t.isUnion() && t.types.every((u) => (u.flags & ts.TypeFlags.Unit) !== 0));
    const first = objects[0];
    if (!first) return undefined;
    return this.checker
      .getPropertiesOfType(first)
      .map((p) => p.name)
      .find((n) =>
        objects.every((o) => {
          const p = o.getProperty(n);
          return p !== undefined && isUnit(this.propType(p));
        }),
      );
  }

  /** 对象类型的成员：属性和方法、调用签名和构造签名、索引签名。 */
  private objectMembers(owner: string, sep: string, t: ts.Type): void {
    const c = this.checker;
    for (const p of c.getPropertiesOfType(t)) {
      if ((p.declarations ?? []).some(isPrivate)) continue;
      this.out[`${owner}${sep}${p.name}`] = this.member(p);
    }
    const calls = c.getSignaturesOfType(t, ts.SignatureKind.Call);
    if (calls.length) this.out[`${owner}()`] = calls.map((s) => this.sig(s)).join(" & ");
    const ctors = c.getSignaturesOfType(t, ts.SignatureKind.Construct);
    if (ctors.length) this.out[`${owner} new()`] = ctors.map((s) => this.sig(s, ts.SignatureKind.Construct)).join(" & ");
    for (const info of c.getIndexInfosOfType(t)) {
      const ro = info.isReadonly ? "readonly " : "";
      this.out[`${owner}[${this.text(info.keyType)}]`] = `${ro}: ${this.text(info.type)}`;
    }
  }

  /** 类：实例成员 `Name#m`、静态成员 `Name.m`、构造函数 `Name.constructor`。 */
  private classBody(name: string, sym: ts.Symbol): void {
    const c = this.checker;
    for (const p of c.getPropertiesOfType(c.getDeclaredTypeOfSymbol(sym))) {
      if ((p.declarations ?? []).some(isPrivate)) continue;
      this.out[`${name}#${p.name}`] = this.member(p);
    }
    const ctorType = c.getTypeOfSymbol(sym);
    for (const p of c.getPropertiesOfType(ctorType)) {
      if (p.name === "prototype" || (p.declarations ?? []).some(isPrivate)) continue;
      this.out[`${name}.${p.name}`] = this.member(p);
    }
    const ctors = c.getSignaturesOfType(ctorType, ts.SignatureKind.Construct);
    this.out[`${name}.constructor`] = ctors.map((s) => this.sig(s, ts.SignatureKind.Construct)).join(" & ");
  }

  /** 属性 → `readonly ?: T`；方法 → 它的签名（可能几个）。 */
  private member(p: ts.Symbol): string {
    const c = this.checker;
    const optional = p.flags & ts.SymbolFlags.Optional ? "?" : "";
    if (p.flags & ts.SymbolFlags.Method) {
      const sigs = c.getSignaturesOfType(c.getNonNullableType(c.getTypeOfSymbol(p)), ts.SignatureKind.Call);
      return optional + sigs.map((s) => this.sig(s)).join(" & ");
    }
    return `${this.isReadonly(p) ? "readonly " : ""}${optional}: ${this.text(this.propType(p))}`;
  }

  private isReadonly(p: ts.Symbol): boolean {
    const decls = p.declarations ?? [];
    if (decls.some((d) => ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Readonly)) return true;
    return (p.flags & ts.SymbolFlags.GetAccessor) !== 0 && (p.flags & ts.SymbolFlags.SetAccessor) === 0;
  }

  /** 声明里写的类型（从类型节点取），所以 `x?: string` 打出 `string`，不是 `string | undefined`。 */
  private propType(p: ts.Symbol): ts.Type {
    const decl = p.valueDeclaration;
    if (decl && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) && decl.type) {
      return this.checker.getTypeFromTypeNode(decl.type);
    }
    return this.checker.getTypeOfSymbol(p);
  }

  /** 和 signatureToString 一样，只是参数和返回值的类型经过 text()：联合排好序、用声明里写的类型。 */
  private sig(s: ts.Signature, kind?: ts.SignatureKind): string {
    const c = this.checker;
    const typeParams = s.typeParameters?.length
      ? `<${s.typeParameters.map((t) => c.typeToString(t, undefined, FORMAT)).join(", ")}>`
      : "";
    const params = s.parameters.map((p) => {
      const d = p.valueDeclaration;
      if (!d || !ts.isParameter(d)) return `${p.name}: ${this.text(c.getTypeOfSymbol(p))}`;
      const optional = d.questionToken || d.initializer ? "?" : "";
      const type = d.type ? c.getTypeFromTypeNode(d.type) : c.getTypeOfSymbol(p);
      return `${d.dotDotDotToken ? "..." : ""}${d.name.getText()}${optional}: ${this.text(type)}`;
    });
    const predicate = c.getTypePredicateOfSignature(s);
    const ret = predicate?.type
      ? `${predicate.parameterName ?? "this"} is ${this.text(predicate.type)}`
      : this.text(c.getReturnTypeOfSignature(s));
    const isNew = kind === ts.SignatureKind.Construct ? "new " : "";
    return `${isNew}${typeParams}(${params.join(", ")}) => ${ret}`;
  }

  /** 类型的文字；匿名的顶层联合排好序（TS 按类型创建的先后排）。 */
  private text(t: ts.Type): string {
    if (t.isUnion() && !t.aliasSymbol && !(t.flags & ts.TypeFlags.EnumLiteral)) return this.unionText(t.types);
    return this.checker.typeToString(t, undefined, FORMAT);
  }

  /** 几个类型合成的联合的文字：拍平、去重、排序（null/undefined 放最后），true|false → boolean。 */
  private unionText(types: ts.Type[]): string {
    const parts = new Set<string>();
    for (const t of types) {
      const flat = t.isUnion() && !t.aliasSymbol && !(t.flags & ts.TypeFlags.EnumLiteral) ? t.types : [t];
      for (const u of flat) parts.add(this.checker.typeToString(u, undefined, FORMAT));
    }
    if (parts.has("true") && parts.has("false")) {
      parts.delete("true");
      parts.delete("false");
      parts.add("boolean");
    }
    const rank = (s: string) => (s === "null" ? 1 : s === "undefined" ? 2 : 0);
    return [...parts].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)).join(" | ");
  }
}
