import { validationFailed } from './errors.ts';

/** GoTrue's `defaultPerPage`. */
const DEFAULT_PER_PAGE = 50;
const UNSIGNED_INTEGER = /^\d+$/;

export interface Page {
  /** 1-based. */
  page: number;
  perPage: number;
}

/** `?page=&per_page=` as GoTrue's paginate reads them: empty values (auth-js sends them) mean the default. */
export function pageParams(url: URL): Page {
  const page = unsignedParam(url, 'page') ?? 1;
  const perPage = unsignedParam(url, 'per_page') ?? DEFAULT_PER_PAGE;
  // GoTrue would divide by zero here; a page of nothing is refused instead.
  if (perPage === 0) throw validationFailed('Bad Pagination Parameters: per_page must be at least 1');
  return { page: Math.max(page, 1), perPage };
}

export function pageOffset({ page, perPage }: Page): number {
  return (page - 1) * perPage;
}

/**
 * GoTrue's addPaginationHeaders: `X-Total-Count`, and a `Link` to the next page (when there is one) and
 * the last, on the request's own path and query with the keys sorted, as Go's url.Values.Encode writes them.
 */
export function paginationHeaders(url: URL, { page, perPage }: Page, total: number): Record<string, string> {
  const totalPages = Math.ceil(total / perPage);
  const links: string[] = [];
  if (totalPages > page) links.push(`<${pageLink(url, page + 1)}>; rel="next"`);
  links.push(`<${pageLink(url, totalPages)}>; rel="last"`);
  return { Link: links.join(', '), 'X-Total-Count': String(total) };
}

function pageLink(url: URL, page: number): string {
  const query = new URLSearchParams(url.searchParams);
  query.set('page', String(page));
  query.sort();
  return `${url.pathname}?${query.toString()}`;
}

function unsignedParam(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === '') return undefined;
  if (!UNSIGNED_INTEGER.test(value)) {
    throw validationFailed(
      `Bad Pagination Parameters: strconv.ParseUint: parsing "${value}": invalid syntax`,
    );
  }
  return Number(value);
}
