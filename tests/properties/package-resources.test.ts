// 性质测试（fast-check）：包的资料叠在原来的 loader 上（D40），装包不读资料，load(trust) 每层同一个信任；
// 形状不对的包（任意一处换成任意一个不对的值）整包拒绝，报错点名那一处，agent 什么都没变。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import { makeAgent } from "../../tooling/assemble-agent.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { BOUNDARY_RUNS, okProvider, params } from "./common.ts";
import { goodPackage, harness, installRow } from "../bad-input/harness.ts";

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

// ── 形状不对的包整包拒绝（s12，parsePackage） ─────────────────────────
const notString = fc.anything().filter((v) => typeof v !== "string");
const notArray = fc.anything().filter((v) => !Array.isArray(v));
const notRecord = fc.anything().filter((v) => typeof v !== "object" || v === null || Array.isArray(v));
/** 好包坏在一处：那一处的路径（报错里点名的）和坏了的包。 */
const brokenPackageArb: fc.Arbitrary<{ path: string; pkg: unknown }> = fc.oneof(
  notRecord.map((pkg) => ({ path: "package", pkg })),
  notRecord.map((manifest) => ({ path: "manifest", pkg: { ...goodPackage(), manifest } })),
  fc.oneof(notString, fc.constant("")).map((name) => ({ path: "manifest.name", pkg: { ...goodPackage(), manifest: { ...goodPackage().manifest, name } } })),
  fc.tuple(fc.constantFrom("tools", "commands", "resources"), notArray).map(([key, value]) => ({ path: `manifest.${key}`, pkg: { ...goodPackage(), manifest: { ...goodPackage().manifest, [key]: value } } })),
  fc.tuple(fc.constantFrom("tools", "commands", "resources"), notString).map(([key, value]) => ({ path: `manifest.${key}.0`, pkg: { ...goodPackage(), manifest: { ...goodPackage().manifest, [key]: [value] } } })),
  notRecord.map((contents) => ({ path: "contents", pkg: { ...goodPackage(), contents } })),
  notString.map((value) => ({ path: "contents.greet", pkg: { ...goodPackage(), contents: { ...goodPackage().contents, greet: value } } })),
);

forLessonsFrom("packages", (id, load) => {
  it("形状不对的包：loadPackage 抛 `invalid package: <哪一处>: …`，什么都没装，工具、命令、资料、系统提示都和之前一样", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(brokenPackageArb, async ({ path, pkg }) => {
        const { error, intact } = await installRow(harness(id, mod), pkg);
        fastExpect(error?.startsWith(`invalid package: ${path}: `), `got ${error}`).toBe(true);
        fastExpect(intact).toBe(true);
      }),
      BOUNDARY_RUNS,
    );
  });
});
