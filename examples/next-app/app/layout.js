export const metadata = { title: 'graceful-ai on Next.js' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
