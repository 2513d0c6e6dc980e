// Placeholder: the downloader's tests are being written (issue 6).
