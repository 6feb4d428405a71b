// Reading an API report key (the format is described in tests/api/README.md): which declaration it belongs to, and
// which names (a member, union members) writing it brings in.

/** The declaration a key belongs to: `ProviderEvent[type="x"].text` → `ProviderEvent`. */
export function ownerOf(key: string): string {
  return /^[^.#|[@(= ]+/.exec(key)?.[0] ?? key;
}

export interface KeyInfo {
  owner: string;
  /** What naming this key takes: the declaration, a member, union member(s). */
  tokens: string[];
  kind: "decl" | "member" | "variant" | "variantField" | "other";
  /** `type` for `X|[type="a"]` and `X[type="a"].f`. */
  discriminant?: string;
  /** `[type="a"]` for variant and variant-field keys. */
  label?: string;
  member?: string;
}

/** Reads a report key (format in tests/api/README.md); undefined for tag keys (`X@since`, `X@upgraded`). */
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
