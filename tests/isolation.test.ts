// tests/support/isolation.ts：isolate 关掉以后，每个测试文件跑完都查它有没有留下会串到下一个文件的东西。这个检查自己也得能失败。
import { describe, expect, it } from "vitest";
import { importLesson } from "../tooling/lesson.ts";
import { leftBehind } from "./support/isolation.ts";

describe("测试文件之间不串：留下的东西查得出来", () => {
  it("演示的 rm 工具删掉的文件没放回去：报出是哪一课；放回去（连先后一起）就没事", async () => {
    const mod = await importLesson("s05");
    const saved = { ...mod.DEMO_FILES };
    const rm = mod.createDemoTools().find((t) => t.spec.name === "rm");
    if (rm === undefined) throw new Error("s05 has no rm demo tool");
    try {
      expect(await leftBehind()).toEqual([]);
      rm.handler({ path: "README.md" });
      expect(await leftBehind()).toEqual(["s05 DEMO_FILES differs from the lesson's own (a demo tool changed it and nothing put it back)"]);
      // 内容一样、先后不同也算（ls 按先后列文件）
      mod.DEMO_FILES["README.md"] = saved["README.md"];
      expect(await leftBehind()).toHaveLength(1);
    } finally {
      for (const key of Object.keys(mod.DEMO_FILES)) delete mod.DEMO_FILES[key];
      Object.assign(mod.DEMO_FILES, saved);
    }
    expect(await leftBehind()).toEqual([]);
  });
});
