/**
 * The mixed request list of `npm run load` and the soak of `npm run bench:serve`: first pages, deep
 * pages, pages cut from size 50, CSV, unknown localities and invalid requests.
 */
export const LOAD_REQUESTS: readonly { path: string; headers?: Record<string, string> }[] = [
  { path: "/de/Streets?locality=Berlin" },
  { path: "/de/Streets?locality=Berlin&page=2&pageSize=10" },
  { path: "/de/Streets?locality=Berlin&page=239&pageSize=50" },
  { path: "/de/Streets?locality=Berlin&page=1192&pageSize=10" },
  { path: "/de/Streets?locality=Berlin&page=11000&pageSize=1" },
  { path: "/de/Streets?locality=berlin&page=77&pageSize=13", headers: { accept: "text/csv" } },
  { path: "/de/Streets?locality=Berlin&page=400&pageSize=3&format=csv" },
  { path: "/de/Streets?locality=Atlantis" },
  { path: "/de/Streets?locality=Berlin&pageSize=51" },
  { path: "/de/Streets?locality=Berlin&page=0" },
  { path: "/de/Streets" },
  { path: "/ch/Cantons" },
  { path: "/nowhere" },
];
