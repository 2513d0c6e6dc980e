// Placeholder: the downloader is being written (issue 6).
