import type { ValidationErrors } from "./query.ts";

/** An RFC 9457 problem in the shape ASP.NET (and so the OpenPLZ clients) produce. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly errors?: ValidationErrors;
}

const TYPES: Record<number, string> = {
  400: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
  404: "https://tools.ietf.org/html/rfc9110#section-15.5.5",
  405: "https://tools.ietf.org/html/rfc9110#section-15.5.6",
  500: "https://tools.ietf.org/html/rfc9110#section-15.6.1",
  408: "https://tools.ietf.org/html/rfc9110#section-15.5.9",
  417: "https://tools.ietf.org/html/rfc9110#section-15.5.18",
  431: "https://tools.ietf.org/html/rfc6585#section-5",
  501: "https://tools.ietf.org/html/rfc9110#section-15.6.2",
  503: "https://tools.ietf.org/html/rfc9110#section-15.6.4",
};

const SERVER_TITLES = {
  400: "Bad Request",
  408: "Request Timeout",
  417: "Expectation Failed",
  431: "Request Header Fields Too Large",
  501: "Not Implemented",
  503: "Service Unavailable",
} as const;

/**
 * An answer of the self-hosted HTTP server itself, before any request reaches the Worker: a
 * request it cannot parse (400), whose head is too large (431) or too slow (408), a method it
 * does not know (501), an expectation it cannot meet (417), or more requests at once than it
 * takes (503).
 */
export function serverProblem(status: keyof typeof SERVER_TITLES, detail: string): Problem {
  return { type: TYPES[status] ?? "about:blank", title: SERVER_TITLES[status], status, detail };
}

export function validationProblem(errors: ValidationErrors, detail: string): Problem {
  return {
    type: TYPES[400] ?? "about:blank",
    title: "One or more validation errors occurred.",
    status: 400,
    detail,
    errors,
  };
}

export function notFoundProblem(path: string): Problem {
  return {
    type: TYPES[404] ?? "about:blank",
    title: "Not Found",
    status: 404,
    detail: `There is no resource at '${clip(path)}'.`,
  };
}

const clip = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

/** A 404 for an endpoint of the original API that this build does not serve: says so, and why. */
export function notServedProblem(endpoint: string, reason: string): Problem {
  return {
    type: TYPES[404] ?? "about:blank",
    title: "Not Found",
    status: 404,
    detail: `This build does not serve ${endpoint}: ${reason}.`,
  };
}

export function methodNotAllowedProblem(method: string, allow: string): Problem {
  return {
    type: TYPES[405] ?? "about:blank",
    title: "Method Not Allowed",
    status: 405,
    detail: `The method ${method} is not allowed here; use ${allow}.`,
  };
}

export function internalErrorProblem(): Problem {
  return {
    type: TYPES[500] ?? "about:blank",
    title: "Internal Server Error",
    status: 500,
    detail: "The request could not be served; please try again later.",
  };
}
