// 读者 diff（npm run diff）底下的逐行比对：不管两份文本是什么，拆出来的行都能原样拼回两边。
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines } from "../tooling/linediff";

const text = fc.array(fc.constantFrom("a", "b", "c", "", "// x"), { maxLength: 30 }).map((lines) => lines.join("\n"));

describe("diffLines", () => {
  it("same + add 拼回新文件，same + del 拼回旧文件，行号对得上", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const d = diffLines(before, after);
        const newSide = d.filter((x) => x.kind !== "del");
        expect(newSide.map((x) => x.text).join("\n")).toBe(after);
        expect(newSide.map((x) => x.line)).toEqual(newSide.map((_, i) => i + 1));
        expect(d.filter((x) => x.kind !== "add").map((x) => x.text).join("\n")).toBe(before);
      }),
      { numRuns: 200 },
    );
  });

  it("只加了一行时，恰好报出那一行", () => {
    const d = diffLines("a\nb\nc", "a\nb\nnew\nc");
    expect(d.filter((x) => x.kind === "add")).toEqual([{ kind: "add", text: "new", line: 3 }]);
    expect(d.some((x) => x.kind === "del")).toBe(false);
  });
});
