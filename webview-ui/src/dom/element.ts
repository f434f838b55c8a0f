// Building DOM without HTML strings: every piece of text becomes a text node, so conversation
// content can never turn into markup, scripts or styles (there is no innerHTML anywhere).

export type Child = Node | string | number | null | undefined | false;

export interface ElementProps {
  className?: string;
  /** Attributes, set with setAttribute (never `on…` handlers or `style`: listeners are added
   *  with addEventListener and sizes through the CSSOM). */
  attrs?: Record<string, string | number | boolean | undefined>;
  text?: string;
  title?: string;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: ElementProps = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.className) el.className = props.className;
  if (props.attrs) {
    for (const [name, value] of Object.entries(props.attrs)) {
      if (value === undefined || value === false) continue;
      if (name.startsWith('on') || name === 'style') throw new Error(`h(): refusing the attribute ${name}`);
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  if (props.title !== undefined) el.title = props.title;
  if (props.text !== undefined) el.textContent = props.text;
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** A button; `pressed` makes it a toggle (aria-pressed), which Enter and Space flip natively. */
export function button(label: string, props: ElementProps & { pressed?: boolean; variant?: 'primary' | 'secondary' | 'icon' } = {}): HTMLButtonElement {
  const attrs = { type: 'button', ...props.attrs } as Record<string, string | number | boolean | undefined>;
  if (props.pressed !== undefined) attrs['aria-pressed'] = String(props.pressed);
  const b = h('button', { ...props, attrs, text: label });
  b.classList.add(`btn-${props.variant ?? 'secondary'}`);
  return b;
}

export function setPressed(b: HTMLElement, pressed: boolean): void {
  b.setAttribute('aria-pressed', String(pressed));
}
