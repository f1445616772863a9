// A self-signed certificate for the fake SMTP server's TLS modes (CN=localhost, SAN localhost
// and 127.0.0.1, valid 2000-01-01 to 2100-01-01). smtp-server's built-in certificate has expired,
// which would make clients report "certificate has expired" instead of the "self-signed
// certificate" failure spec 50 §7 describes. The private key is public on purpose: test use only.

export const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXu10P+zRUOOc14Kw
BpHq5tqw5D4DJxteFMlq49q0leuhRANCAATU+gPj4649UkX059hplSZixfWuz0oU
9uye6mwxDbxQV5pQnmwdTpNks2GgyYSLT4cKpjI8pvJQYPQQ3/KTAtS4
-----END PRIVATE KEY-----
`;

export const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBzjCCAXSgAwIBAgICEAAwCgYIKoZIzj0EAwIwNjESMBAGA1UEAwwJbG9jYWxo
b3N0MSAwHgYDVQQKDBdVc2hlciB0ZXN0a2l0IGZha2UgU01UUDAgFw0wMDAxMDEw
MDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowNjESMBAGA1UEAwwJbG9jYWxob3N0MSAw
HgYDVQQKDBdVc2hlciB0ZXN0a2l0IGZha2UgU01UUDBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABNT6A+Pjrj1SRfTn2GmVJmLF9a7PShT27J7qbDENvFBXmlCebB1O
k2SzYaDJhItPhwqmMjym8lBg9BDf8pMC1LijcDBuMBoGA1UdEQQTMBGCCWxvY2Fs
aG9zdIcEfwAAATAMBgNVHRMBAf8EAjAAMA4GA1UdDwEB/wQEAwIFoDATBgNVHSUE
DDAKBggrBgEFBQcDATAdBgNVHQ4EFgQU1c6+i2LczGS8XTRsfkby2xYvEswwCgYI
KoZIzj0EAwIDSAAwRQIgFHq4oQE7wgq8ELmXQ+jIq+7HW3GD4X8Lt6jf1YZSNKwC
IQCJCXRY+OYy1/Ez2wvFVMZUqg5clzyuMASwLj1E/3bacQ==
-----END CERTIFICATE-----
`;
