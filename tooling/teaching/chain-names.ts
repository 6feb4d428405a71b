// 教学检查：链路一节（根 README 的「一轮对话的完整链路」，chain-section.ts 读出来）点到的名字。写的人要做到：
//
//   这一节的代码片段里的每个标识符，和 Mermaid 图的框里每个像代码的词（camelCase、snake_case、`a.b`、`f(`），
//   都是 s12 的 code.ts 里的名字；写成 `f(` 的，s12 里得有这个函数或方法。每个规则标签在 GLOSSARY.md 里有一条，
//   每个课号 sNN 都是真的课。
import type { Nodes } from "mdast";
import ts from "typescript";
import { lineOf } from "../markdown.ts";
import { TS_WORDS, codeTokens, identifiersIn } from "../names.ts";
import { anchorOf, codesIn } from "./glossary.ts";
import { CHAIN_HEADING, readChainSection } from "./chain-section.ts";
import { mermaidNodes } from "./diagram.ts";

/** 一个 TypeScript 文件里声明成可调用的名字：函数、方法，值是函数的常量和属性。 */
export function callables(code: string): Set<string> {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = new Set<string>();
  const isFn = (n: ts.Node | undefined): boolean => n !== undefined && (ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isFunctionTypeNode(n));
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) && node.name !== undefined && ts.isIdentifier(node.name)) out.add(node.name.text);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isFn(node.initializer)) out.add(node.name.text);
    if ((ts.isPropertySignature(node) && isFn(node.type)) || (ts.isPropertyAssignment(node) && isFn(node.initializer))) {
      if (ts.isIdentifier(node.name)) out.add(node.name.text);
    }
    node.forEachChild(visit);
  };
  visit(sf);
  return out;
}

/** 图里一个框的文字中像代码的词：camelCase / PascalCase、snake_case、`a.b` 的一段，或者写成 `f(` 调用的。 */
function codeLooking(label: string): { name: string; call: boolean }[] {
  const out: { name: string; call: boolean }[] = [];
  for (const m of label.matchAll(/(?<![\w$])(\.)?([A-Za-z_$][\w$]*)(\s*\()?(\.|\?\.)?/g)) {
    const name = m[2] ?? "";
    const call = m[3] !== undefined;
    if (call || m[1] !== undefined || m[4] !== undefined || /[A-Z]/.test(name.slice(1)) || name.includes("_")) out.push({ name, call });
  }
  return out;
}

/** 链路一节只点 s12 里有的名字、只调它声明的函数，标签只用术语表里有的规则和真的课。 */
export function checkRootChain(readme: string, finalCode: string, anchors: ReadonlySet<string>, lessons: readonly string[]): string[] {
  const say = (what: string): string => `README.md ${CHAIN_HEADING}: ${what}`;
  const chain = readChainSection(readme);
  if (chain === undefined) return [say("section missing")];
  const tokens = codeTokens(finalCode);
  const functions = callables(finalCode);
  const out: string[] = [];
  const name = (n: string, at: number): void => void (tokens.has(n) || TS_WORDS.has(n) || out.push(say(`line ${at}: \`${n}\` is not a name in s12's code.ts`)));
  const call = (n: string, at: number): void => void (!tokens.has(n) || functions.has(n) || out.push(say(`line ${at}: \`${n}(…)\` is called, but s12's code.ts declares no function or method ${n}`)));
  const tags = (text: string, at: number): void => {
    for (const code of codesIn(text)) if (!anchors.has(anchorOf(code))) out.push(say(`line ${at}: tag ${code} is not in GLOSSARY.md`));
    for (const m of text.matchAll(/(?<![\w/])s(\d\d)(?![\w])/g)) if (!lessons.includes(`s${m[1]}`)) out.push(say(`line ${at}: tag s${m[1]} is not a lesson`));
  };
  const visit = (node: Nodes): void => {
    if (node.type === "inlineCode") {
      const bare = node.value.replace(/"[^"]*"|'[^']*'/g, " ");
      for (const n of identifiersIn(bare)) name(n, lineOf(node));
      for (const m of bare.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)) call(m[1] ?? "", lineOf(node));
    }
    if (node.type === "code" && node.lang === "mermaid") {
      for (const label of mermaidNodes(node.value).labels.values()) {
        for (const t of codeLooking(label.replace(/<[^>]*>/g, " "))) {
          name(t.name, lineOf(node));
          if (t.call) call(t.name, lineOf(node));
        }
      }
      tags(node.value, lineOf(node));
    }
    if (node.type === "text") tags(node.value, lineOf(node));
    if ("children" in node) node.children.forEach(visit);
  };
  chain.section.nodes.forEach(visit);
  return [...new Set(out)];
}
