// 性质测试（fast-check）：包的资料叠在原来的 loader 上（D40），装包不读资料，load(trust) 每层同一个信任。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import { makeAgent } from "../../tooling/assemble-agent.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { okProvider, params } from "./common.ts";

// ── 包的资料叠在原来的 loader 上（s12，D40） ─────────────────────────────
// 装包一份资料都不读；之后每次 load(trust) 都用同一个信任把每一层问一遍：不信任什么都不给，
// 信任时先是项目自己的资料，再按装的先后接上每个包的，同种同名的先来的算数。
type Res = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
const resNameArb = fc.constantFrom("a", "b", "commit", "__proto__");
const projectResArb: fc.Arbitrary<Res> = fc.record({ kind: fc.constantFrom<Res["kind"]>("agents", "skill", "prompt"), name: resNameArb, content: fc.string({ maxLength: 4 }) });
const packageResArb = fc.dictionary(
  fc.oneof(resNameArb.map((n) => `skills/${n}`), resNameArb.map((n) => `prompts/${n}`), fc.constant("AGENTS.md")),
  fc.string({ maxLength: 4 }),
  { maxKeys: 3 },
);

forLessonsFrom("packages", (id, load) => {
  it("装包不读资料（D40）；load(trust) 每层同一个信任，项目的在前、包按装的先后，同种同名先来的算数", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.array(projectResArb, { maxLength: 4 }), fc.array(packageResArb, { maxLength: 3 }), async (project, packages) => {
        const { agent } = makeAgent(id, mod, { provider: okProvider(id), resources: project });
        const base = agent.loader;
        if (base === undefined) throw new Error("s12 has a loader");
        const asked: string[] = [];
        agent.loader = { load: (trust) => (asked.push(String(trust)), base.load(trust)) };
        const expected: Res[] = project.map((r) => ({ ...r }));
        for (const [k, contents] of packages.entries()) {
          const name = `p${k}`;
          mod.installPackage(agent, mod.loadPackage({ manifest: { name, tools: [], commands: [], resources: Object.keys(contents) }, contents }));
          const taken = new Set(expected.map((r) => `${r.kind}:${r.name}`));
          for (const [file, content] of Object.entries(contents)) {
            const r: Res = file === "AGENTS.md" ? { kind: "agents", name: `${name}/AGENTS.md`, content } : { kind: file.startsWith("skills/") ? "skill" : "prompt", name: file.replace(/^(skills|prompts)\//, ""), content };
            if (!taken.has(`${r.kind}:${r.name}`)) expected.push(r);
          }
        }
        fastExpect(asked, "installing reads no resources").toEqual([]);
        fastExpect(agent.loader?.load("untrusted")).toEqual([]);
        fastExpect(agent.loader?.load("trusted")).toEqual(expected);
        fastExpect(asked, "every load asks the layer below once, with the same trust").toEqual(["untrusted", "trusted"]);
      }),
      params,
    );
  });
});
