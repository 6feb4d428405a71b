// 读 API 报告的一个键（写法见 tests/api/README.md）：它属于哪个声明，写出它会带进哪些名字（一个成员、联合类型的成员）。

/** 一个键属于哪个声明：`ProviderEvent[type="x"].text` → `ProviderEvent`。 */
export function ownerOf(key: string): string {
  return /^[^.#|[@(= ]+/.exec(key)?.[0] ?? key;
}

export interface KeyInfo {
  owner: string;
  /** 点名这个键要写出哪些名字：声明、一个成员、联合类型的成员。 */
  tokens: string[];
  kind: "decl" | "member" | "variant" | "variantField" | "other";
  /** `X|[type="a"]` 和 `X[type="a"].f` 里的 `type`。 */
  discriminant?: string;
  /** 变体和变体字段的键里的 `[type="a"]`。 */
  label?: string;
  member?: string;
}

/** 读一个报告的键（写法见 tests/api/README.md）；标签键（`X@since`、`X@upgraded`）回 undefined。 */
export function keyInfo(key: string): KeyInfo | undefined {
  if (key.includes("@")) return undefined;
  const owner = ownerOf(key);
  const rest = key.slice(owner.length);
  if (rest === "") return { owner, tokens: [owner], kind: "decl" };
  if (rest === "()") return { owner, tokens: [], kind: "other" };
  if (rest.startsWith(".") || rest.startsWith("#")) {
    const member = rest.slice(1);
    return { owner, tokens: member === "constructor" ? [] : [member], kind: "member", member };
  }
  if (rest.startsWith("|")) {
    const v = rest.slice(1);
    const label = /^\[([\w$]+)=(.*)\]$/.exec(v);
    if (label) {
      const values = [...(label[2] ?? "").matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "");
      return { owner, tokens: values, kind: "variant", discriminant: label[1], label: `[${label[1]}=${label[2]}]` };
    }
    const lit = /^"(.*)"$/.exec(v);
    if (lit) return { owner, tokens: [lit[1] ?? ""], kind: "variant" };
    return { owner, tokens: /^[A-Za-z_$][\w$]*$/.test(v) ? [v] : [], kind: "variant" };
  }
  const field = /^(\[([\w$]+)=.*\])\.(.+)$/.exec(rest);
  if (field) {
    const member = field[3] ?? "";
    return { owner, tokens: [member], kind: "variantField", discriminant: field[2], label: field[1], member };
  }
  return { owner, tokens: [], kind: "other" };
}
