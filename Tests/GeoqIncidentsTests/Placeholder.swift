// Placeholder (issue 6).
