import { NOT_FOUND_PAGE, OPEN_PAGES, pagesAt, SIGNED_IN_LAYOUT, SIGNED_IN_PAGES, SIGNED_OUT_PAGES } from './pages';

describe('pagesAt (what the start-up fetches first)', () => {
  it('gives a signed-out visitor the screen asked for, or the login screen', () => {
    expect(pagesAt('/login', false)).toEqual([SIGNED_OUT_PAGES.login]);
    expect(pagesAt('/signup/', false)).toEqual([SIGNED_OUT_PAGES.signup]);
    expect(pagesAt('/reset-password', false)).toEqual([OPEN_PAGES['reset-password']]);
    expect(pagesAt('/verify-email', false)).toEqual([OPEN_PAGES['verify-email']]);
    expect(pagesAt('/processes', false)).toEqual([SIGNED_OUT_PAGES.login]);
    expect(pagesAt('/', false)).toEqual([SIGNED_OUT_PAGES.login]);
  });

  it('gives a signed-in visitor the layout and the screen, the dashboard for signed-out screens', () => {
    expect(pagesAt('/processes', true)).toEqual([SIGNED_IN_LAYOUT, SIGNED_IN_PAGES.processes]);
    expect(pagesAt('/', true)).toEqual([SIGNED_IN_LAYOUT, SIGNED_IN_PAGES.dashboard]);
    expect(pagesAt('/login', true)).toEqual([SIGNED_IN_LAYOUT, SIGNED_IN_PAGES.dashboard]);
    expect(pagesAt('/reset-password', true)).toEqual([OPEN_PAGES['reset-password']]);
    expect(pagesAt('/verify-email', true)).toEqual([OPEN_PAGES['verify-email']]);
    expect(pagesAt('/nowhere', true)).toEqual([SIGNED_IN_LAYOUT, NOT_FOUND_PAGE]);
    expect(pagesAt('/constructor', true)).toEqual([SIGNED_IN_LAYOUT, NOT_FOUND_PAGE]);
  });

  it('loads a page once, and keeps its component', async () => {
    const page = SIGNED_OUT_PAGES['forgot-password'];
    const first = page.load();
    expect(page.load()).toBe(first);
    const module = await first;
    expect(page.component).toBe(module.default);
    expect(page.namespaces).toEqual(['auth']);
  });
});
