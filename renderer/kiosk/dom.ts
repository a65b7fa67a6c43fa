/** Attributes of `h()`: DOM properties, `on*` listeners, `data-*`/`aria-*` attributes. */
type Props = Record<string, unknown>;
export type Child = Node | string | number | false | null | undefined | Child[];

/** Builds an element. Inline styles are never used (the page runs under a strict CSP); classes carry the look. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === 'class') {
      el.className = String(value);
    } else if (key.startsWith('data-') || key.startsWith('aria-') || key === 'role' || key === 'for') {
      el.setAttribute(key, value === true ? '' : String(value));
    } else {
      (el as unknown as Record<string, unknown>)[key] = value;
    }
  }
  append(el, children);
  return el;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything inside `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
