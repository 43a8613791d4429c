/** @type {import('next').NextConfig} */
const nextConfig = {
  // The app lives inside the graceful-ai repo: keep Turbopack's root here, not at the repo's lockfile.
  turbopack: { root: import.meta.dirname },
  outputFileTracingRoot: import.meta.dirname,
};

export default nextConfig;
