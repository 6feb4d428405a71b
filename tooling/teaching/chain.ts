/**
 * Teaching check: 链路 (the root README's section `## 一轮对话的完整链路`). What a writer must do to pass:
 *
 *   Every identifier in the section's code spans, and every code-looking token (camelCase, snake_case,
 *   `a.b`, `f(`) in its Mermaid labels, is a name in s12's code.ts; every `f(` is a function or method
 *   declared there. Every rule tag resolves in GLOSSARY.md and every lesson tag sNN is a lesson.
 */
import type { Nodes } from "mdast";
import ts from "typescript";
import { lineOf, parseReadme, partsOf } from "../markdown.ts";
import { TS_WORDS, codeTokens, identifiersIn } from "../names.ts";
import { anchorOf, codesIn } from "./glossary.ts";
import { mermaidNodes } from "./diagram.ts";

/** Names a TypeScript file declares as callable: functions, methods, and consts/properties holding a function. */
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

export const CHAIN_HEADING = "一轮对话的完整链路";

/** A code-looking token of a label: camelCase/PascalCase, snake_case, part of `a.b`, or called `f(`. */
function codeLooking(label: string): { name: string; call: boolean }[] {
  const out: { name: string; call: boolean }[] = [];
  for (const m of label.matchAll(/(?<![\w$])(\.)?([A-Za-z_$][\w$]*)(\s*\()?(\.|\?\.)?/g)) {
    const name = m[2] ?? "";
    const call = m[3] !== undefined;
    if (call || m[1] !== undefined || m[4] !== undefined || /[A-Z]/.test(name.slice(1)) || name.includes("_")) out.push({ name, call });
  }
  return out;
}

/** 链路: the chain section names only what s12 has, calls only its functions, and tags only known rules and lessons. */
export function checkRootChain(readme: string, finalCode: string, anchors: ReadonlySet<string>, lessons: readonly string[]): string[] {
  const say = (what: string): string => `README.md ${CHAIN_HEADING}: ${what}`;
  const part = partsOf(parseReadme(readme)).find((p) => p.name.startsWith(CHAIN_HEADING));
  if (part === undefined) return [say("section missing")];
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
  part.nodes.forEach(visit);
  return [...new Set(out)];
}
